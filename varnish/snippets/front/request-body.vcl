
# --- A request body read whole before it is passed on ------------------------------
# Varnish streams a request body to the back tier as it arrives: a chunked body
# whose framing breaks midway (a bad chunk size, a missing CRLF) has already
# started a request at the origin, and the client gets a 503. Read first, as
# nginx's front reads a body before passing it (proxy_request_buffering), such a
# body reaches no one: Varnish closes the connection on it, unanswered
# (docs/smuggling.md). 1 MB is nginx's client_max_body_size: a body its
# Content-Length says is longer is a 413, as there; a longer chunked one ends
# the connection too.
# https://varnish-cache.org/docs/7.1/reference/vmod_std.html#std-cache-req-body
sub vcl_recv {
  if (std.integer(req.http.Content-Length, 0) > 1048576) {
    return (synth(413));
  }
  if (!std.cache_req_body(1MB)) {
    return (synth(400));
  }
}
