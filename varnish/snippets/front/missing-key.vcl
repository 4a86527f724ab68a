# --- A request without a valid key (--missing-key reject) ------------------------
# The 401 snippets/shared/client-limit.vcl (or, with --limit-scope misses,
# front/pass-limit-key.vcl) asks for: one line saying where the key goes, and
# the challenge RFC 9110 section 11.6.1 requires, in the suite's own scheme, as
# nginx's edge sends them. Before the markers' vcl_synth, which would answer
# with the reason phrase alone.
# https://www.rfc-editor.org/rfc/rfc9110#section-11.6.1
# https://varnish-cache.org/docs/7.1/users-guide/vcl-built-in-subs.html#vcl-synth
sub vcl_synth {
  if (req.http.X-Ratecache-Missing-Key && resp.status == 401) {
    set resp.http.WWW-Authenticate = {"{{challenge}}"};
    set resp.http.Content-Type = "text/plain; charset=utf-8";
    set resp.body = {"{{missingBody}}
"};
    return (deliver);
  }
}
