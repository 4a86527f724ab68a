
# --- The key the per-client limit counts by: {{keyWhere}} ----------
# Read from the request as the client sent it, into X-Ratecache-Key; checked
# and counted by snippets/shared/client-limit.vcl, or passed to the back tier
# with --limit-scope misses (snippets/front/pass-limit-key.vcl).
sub ratecache_read_key {
{{#byHeader}}
  set req.http.X-Ratecache-Key = req.http.{{keyName}};
{{/byHeader}}
{{#byCookie}}
  # https://varnish-cache.org/docs/7.1/reference/vmod_cookie.html
  cookie.parse(req.http.Cookie);
  set req.http.X-Ratecache-Key = cookie.get("{{keyName}}");
{{/byCookie}}
{{#byArg}}
  # The first {{keyName}}= of the query, as nginx's $arg_ reads it; regsub gives
  # back the whole URL when it does not match, hence the test first.
  # https://varnish-cache.org/docs/7.1/reference/vcl.html#regsub-str-regex-sub
  unset req.http.X-Ratecache-Key;
  if (req.url ~ "{{argPresent}}") {
    set req.http.X-Ratecache-Key = regsub(req.url, "{{argValue}}", "\1");
  }
{{/byArg}}
}
