
# --- Grace: stale content only where the origin allowed it (--stale rfc) ---------
# Varnish 7.1 reads stale-while-revalidate into beresp.grace by itself, and
# without it gives every object default_grace (10 s): an expired object would
# be served while it is refreshed although the origin never allowed it.
# https://varnish-cache.org/docs/7.1/users-guide/vcl-grace.html
sub vcl_backend_response {
  if (beresp.http.Cache-Control !~ "stale-while-revalidate=") {
    set beresp.grace = 0s;
  }
  # stale-if-error (RFC 5861) Varnish does not read. Its only way to serve
  # stale is grace, so the object is kept in grace as long as stale-if-error
  # allows: within it an expired object is served while a background fetch
  # refreshes it, and a failing fetch leaves it in place (below). Unlike nginx,
  # the first request after expiry is then answered stale even while the
  # origin is up: Varnish 7.1 cannot hold a client for a refresh and fall back
  # on the stale object when it fails.
  if (beresp.http.Cache-Control ~ "stale-if-error=[0-9]+"
      && std.duration(regsub(beresp.http.Cache-Control, "^.*stale-if-error=([0-9]+).*$", "\1s"), 0s) > beresp.grace) {
    set beresp.grace = std.duration(regsub(beresp.http.Cache-Control, "^.*stale-if-error=([0-9]+).*$", "\1s"), 0s);
  }
  # must-revalidate and proxy-revalidate forbid serving it stale, and s-maxage
  # means proxy-revalidate to a shared cache (RFC 9111 sections 4.2.4, 5.2.2.2,
  # 5.2.2.8, 5.2.2.10), whatever stale-while-revalidate or stale-if-error beside
  # them say: Varnish reads stale-while-revalidate without looking at them.
  if (beresp.http.Cache-Control ~ "(?i)must-revalidate|proxy-revalidate|s-maxage") {
    set beresp.grace = 0s;
  }
  # A background refresh that gets an error is dropped: the stale object stays
  # and is served until its grace ends.
  # https://varnish-cache.org/docs/7.1/reference/vcl-var.html#bereq-is-bgfetch
  if (beresp.status >= 500 && bereq.is_bgfetch) {
    return (abandon);
  }
}

# The same when the origin cannot be reached at all.
# https://varnish-cache.org/docs/7.1/users-guide/vcl-built-in-subs.html#vcl-backend-error
sub vcl_backend_error {
  if (bereq.is_bgfetch) {
    return (abandon);
  }
}
