
# --- The origin's limit, for all clients together --------------------------------
# One vsthrottle bucket on a constant key, so every request counts against the
# same tokens, as nginx's back end limit does by the front end's one address.
# Rate {{rate}} r/s, burst {{burst}}: LIMIT = B+1 over PERIOD = (B+1)/R, as in
# snippets/shared/client-limit.vcl (see there, and varnish/README.md, why).
# https://github.com/varnish/varnish-modules/blob/0.20.0/src/vmod_vsthrottle.vcc
sub vcl_recv {
  if (vsthrottle.is_denied("origin", {{limit}}, {{periodMs}}ms)) {
    set req.http.X-Ratecache-Limited = "1";
    std.log("limit:REJECTED");
    return (synth({{rejectStatus}}));
  }
  # The outcome for the log, read as %{VCL_Log:limit}x.
  std.log("limit:PASSED");
}
