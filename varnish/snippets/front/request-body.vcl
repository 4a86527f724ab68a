
# --- A request body read whole before it is passed on ------------------------------
# Varnish streams a request body to the back tier as it arrives: a chunked body
# whose framing breaks midway (a bad chunk size, a missing CRLF) has already
# started a request at the origin, and the client gets a 503. Read first, as
# nginx's front reads every body before passing it (proxy_request_buffering),
# such a body is refused here with a 400 and reaches no one (docs/smuggling.md).
# 1 MB, nginx's client_max_body_size: a longer body declared by its
# Content-Length is a 413; a longer chunked one fails the read, a 400.
# https://varnish-cache.org/docs/7.1/reference/vmod_std.html#std-cache-req-body
sub vcl_recv {
  if (std.integer(req.http.Content-Length, 0) > 1048576) {
    return (synth(413));
  }
  if (!std.cache_req_body(1MB)) {
    return (synth(400));
  }
}
