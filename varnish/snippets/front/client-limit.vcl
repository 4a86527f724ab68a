
# --- Per-client rate limit, by address ------------------------------------------
# vsthrottle is a token bucket per key: LIMIT tokens, refilled at LIMIT per
# PERIOD, and a request without a token is denied; it never queues. nginx's
# rate R and burst B map onto it as LIMIT = B+1 (nginx passes B+1 at once from
# an idle bucket) and PERIOD = (B+1)/R seconds, so that it refills R tokens a
# second, nginx's rate. Here: rate {{rate}} r/s, burst {{burst}}. In 0.20 the refill is
# truncated to whole tokens and the fraction is lost at every pass
# (varnish-modules#237): a client sending at about R gets less than R through.
# A denied request takes no token, as with nginx. See varnish/README.md.
# https://github.com/varnish/varnish-modules/blob/0.20.0/src/vmod_vsthrottle.vcc
# The key is client.identity, which nothing here sets, so it is the client's
# address as the connection recorded it once; client.ip would be formatted into
# a string again on every request, a third of the limit's price on a HIT.
# https://varnish-cache.org/docs/7.1/reference/vcl-var.html#client-identity
sub vcl_recv {
  if (vsthrottle.is_denied(client.identity, {{limit}}, {{periodMs}}ms)) {
    set req.http.X-Ratecache-Limited = "1";
    std.log("limit:REJECTED");
    return (synth({{rejectStatus}}));
  }
  # The outcome for the log, read as %{VCL_Log:limit}x.
  std.log("limit:PASSED");
}
