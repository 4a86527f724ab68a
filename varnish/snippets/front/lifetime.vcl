
# --- Stored: only what the origin gave a lifetime, and a later request can match ---
# Varnish gives a response without max-age, s-maxage or Expires a lifetime of
# its own (default_ttl, 120 s), and reads an Expires that is not a date as none
# at all, where RFC 9111 section 5.3 says already expired. The suite's edges
# store only what the origin gave a lifetime, as nginx's front does. Nor a
# response with Vary: * among other names, which the built-in VCL only catches
# alone (RFC 9111 section 4.1: a "*" never matches). A TTL of 0 makes the
# built-in vcl_backend_response mark it hit-for-miss.
# https://varnish-cache.org/docs/7.1/users-guide/vcl-built-in-code.html
# https://varnish-cache.org/docs/7.1/reference/vmod_std.html#std-time
sub vcl_backend_response {
  if (beresp.http.Cache-Control !~ "(?i)(^|,)\s*(max-age|s-maxage)\s*="
      && std.time(beresp.http.Expires, std.time(integer=0)) == std.time(integer=0)) {
    set beresp.ttl = 0s;
  }
  if (beresp.http.Vary ~ "(^|,)\s*\*\s*(,|$)") {
    set beresp.ttl = 0s;
  }
}
