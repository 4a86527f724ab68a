
# --- What this tier marks on a request, for its own later subroutines ----------
# A request header is the only per-request note VCL 4.1 keeps from vcl_recv to
# vcl_synth and vcl_deliver; a client's own copy is removed first, so that no
# one can mark their request as limited, or as holding a token of --limit-conn
# that it never took. Each unset is work on every request, a HIT's too: only
# the markers this tier sets are removed.
sub vcl_recv {
  unset req.http.X-Ratecache-Limited;
{{#connLimit}}
  unset req.http.X-Ratecache-Conn;
{{/connLimit}}
}

# Nor does the next tier see them.
# https://varnish-cache.org/docs/7.1/users-guide/vcl-built-in-subs.html#vcl-backend-fetch
sub vcl_backend_fetch {
  unset bereq.http.X-Ratecache-Limited;
{{#connLimit}}
  unset bereq.http.X-Ratecache-Conn;
{{/connLimit}}
}

# --reject-status carries --retry-after; only a rejection by this tier's limit
# is marked, not a PURGE refused or answered. The answer ends here: Varnish's
# built-in vcl_synth would put Retry-After: 5 on every synthetic answer, ours
# included, and an HTML page around it.
# https://varnish-cache.org/docs/7.1/users-guide/vcl-built-in-code.html
sub vcl_synth {
{{#connLimit}}
  # --limit-conn: the token of a request answered here goes back
  # (snippets/front/conn-limit.vcl).
  call ratecache_conn_release;
{{/connLimit}}
  if (req.http.X-Ratecache-Limited) {
    set resp.http.Retry-After = "{{retryAfter}}";
  }
  set resp.http.Content-Type = "text/plain; charset=utf-8";
  set resp.body = resp.reason + {"
"};
  return (deliver);
}
