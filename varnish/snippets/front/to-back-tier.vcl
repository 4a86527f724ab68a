
# --- The back end tier ------------------------------------------------------------
# Varnish adds the client's address to X-Forwarded-For by itself, as nginx's
# front sends it. --read-timeout: how long this tier waits for the next one.
# https://varnish-cache.org/docs/7.1/reference/vcl-backend.html
backend back_tier {
  .host = "127.0.0.1";
  .port = "{{backPort}}";
  .first_byte_timeout = {{readTimeout}}s;
  .between_bytes_timeout = {{readTimeout}}s;
}
