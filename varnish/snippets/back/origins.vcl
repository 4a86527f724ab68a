
# --- The origin(s) ------------------------------------------------------------------
# Several origins take turns, as nginx's default --balance round-robin.
# --read-timeout: how long this tier waits for an origin's response.
# https://varnish-cache.org/docs/7.1/reference/vmod_directors.html#new-xround-robin-directors-round-robin
{{#origins}}
backend origin{{index}} {
  .host = "{{host}}";
  .port = "{{port}}";
  .first_byte_timeout = {{readTimeout}}s;
  .between_bytes_timeout = {{readTimeout}}s;
}
{{/origins}}

sub vcl_init {
  new origins = directors.round_robin();
{{#origins}}
  origins.add_backend(origin{{index}});
{{/origins}}
}
