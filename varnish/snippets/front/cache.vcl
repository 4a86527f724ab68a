
# --- The edge cache, used -------------------------------------------------------
# Requests with Authorization or a cookie are passed: neither answered from the
# cache nor stored, as nginx's front does (its proxy_cache_bypass). Varnish's
# built-in vcl_recv passes them too; the rule is here so that nothing later
# (a cookie-stripping rule of your own) can make them cacheable by mistake.
# Everything else falls through to the built-in vcl_recv, which looks GET and
# HEAD up and passes other methods. Misses of one object wait for a single
# fetch (request coalescing, Varnish's default): nginx's proxy_cache_lock.
# https://varnish-cache.org/docs/7.1/users-guide/vcl-built-in-code.html
sub vcl_recv {
  if (req.http.Authorization || req.http.Cookie) {
    return (pass);
  }
}

# X-Cache-Status as nginx's $upstream_cache_status means it: HIT from the
# cache, STALE for an object served in grace (its TTL is over; a background
# fetch refreshes it), BYPASS for a request passed for its Authorization or
# cookie (a passed object is never a hit), MISS otherwise. A request that waited
# on another's fetch of the same object is a HIT, as it reached no origin.
# obj.ttl in vcl_deliver is what remains of the object's TTL. The HIT is tested
# first: it is the answer this tier gives most, and each test costs it.
# https://varnish-cache.org/docs/7.1/reference/vcl-var.html#obj-hits
sub vcl_deliver {
  if (obj.hits > 0) {
    if (obj.ttl > 0s) {
      set resp.http.X-Cache-Status = "HIT";
    } else {
      set resp.http.X-Cache-Status = "STALE";
    }
  } else if (req.http.Authorization || req.http.Cookie) {
    set resp.http.X-Cache-Status = "BYPASS";
  } else {
    set resp.http.X-Cache-Status = "MISS";
  }
}
