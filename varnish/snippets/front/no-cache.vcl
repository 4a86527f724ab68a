
# --- No edge cache (--no-cache) ---------------------------------------------------
# Every request is passed to the back tier; nothing is stored.
# https://varnish-cache.org/docs/7.1/users-guide/vcl-built-in-subs.html#vcl-recv
sub vcl_recv {
  return (pass);
}
