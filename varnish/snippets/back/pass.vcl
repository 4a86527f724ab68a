
# --- Everything else to the origins, stored nowhere ---------------------------------
# The back tier caches nothing (the cache is the front's): each request is
# passed, so two of the same URL at once are two origin requests, not one.
# https://varnish-cache.org/docs/7.1/users-guide/vcl-built-in-subs.html#vcl-recv
sub vcl_recv {
  set req.backend_hint = origins.backend();
  return (pass);
}
