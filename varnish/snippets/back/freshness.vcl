
# --- Freshness for origins that send no Cache-Control (--freshness) -----------------
# A lifetime per path, given only when the origin's response has neither
# Cache-Control nor Expires, so that an origin which says how long its content
# lives is always believed: nginx's back end does the same with `expires` and
# a map by $uri (nginx/snippets/back/freshness-fallback.conf), and the headers
# are the ones `expires` sends, Cache-Control max-age and an Expires that far
# from now, on the statuses `expires` acts on. The front stores the response
# for that long, as it stores any other. The path is the URL before its query,
# compared ignoring case, as nginx's map compares strings.
# https://nginx.org/en/docs/http/ngx_http_headers_module.html#expires
# https://varnish-cache.org/docs/7.1/reference/vmod_std.html#std-tolower
sub vcl_backend_response {
  if (!beresp.http.Cache-Control && !beresp.http.Expires
      && (beresp.status == 200 || beresp.status == 201 || beresp.status == 204 || beresp.status == 206
          || (beresp.status >= 301 && beresp.status <= 304) || beresp.status == 307 || beresp.status == 308)) {
{{#freshness}}
    if (std.tolower(regsub(bereq.url, "\?.*$", "")) == "{{path}}") {
      set beresp.http.Cache-Control = "max-age={{seconds}}";
      set beresp.http.Expires = now + {{seconds}}s;
    }
{{/freshness}}
  }
}
