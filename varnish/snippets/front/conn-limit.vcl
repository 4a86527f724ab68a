
# --- Requests in flight per client address (--limit-conn {{limit}}) ---------------
# nginx's limit_conn counts a client's requests being answered, not its TCP
# connections; so does this. vsthrottle's return_token (varnish-modules 0.19+)
# gives a token back, which turns a bucket into a count of requests in flight:
# a request takes one here, after the rate limit as nginx checks limit_req
# before limit_conn, and gives it back as its answer starts. Counted by
# address and never skipped by --allow, as nginx's limit_conn_zone
# $binary_remote_addr is. "c" keeps this bucket apart from the rate limit's.
# https://github.com/varnish/varnish-modules/blob/0.20.0/src/vmod_vsthrottle.vcc
# The bucket refills {{limit}} tokens a day, which no request in flight lasts: it
# only brings back a token a request kept by a way out that gives none back.
# Unlike nginx, whose count ends with the response's last byte, the token goes
# back as the answer starts (vcl_deliver runs before the body is sent).
# https://varnish-cache.org/docs/7.1/users-guide/vcl-built-in-subs.html#vcl-deliver
sub vcl_recv {
  if (vsthrottle.is_denied("c" + client.identity, {{limit}}, 1d)) {
    set req.http.X-Ratecache-Limited = "1";
    std.log("conn:REJECTED");
    return (synth({{rejectStatus}}));
  }
  # Marked, so that only a request that took a token gives one back.
  set req.http.X-Ratecache-Conn = "1";
}

# Every way out of a request that took a token: an answer (vcl_deliver), one
# this tier made itself (vcl_synth, whose markers.vcl part calls this), and the
# built-in VCL's pipe, which hands the connection over and answers nothing.
sub ratecache_conn_release {
  if (req.http.X-Ratecache-Conn) {
    unset req.http.X-Ratecache-Conn;
    vsthrottle.return_token("c" + client.identity, {{limit}}, 1d);
  }
}

sub vcl_deliver {
  call ratecache_conn_release;
}

sub vcl_pipe {
  call ratecache_conn_release;
}
