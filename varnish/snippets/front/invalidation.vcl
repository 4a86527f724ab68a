
# --- A write invalidates what it changed (RFC 9111 section 4.4) -------------------
# Varnish passes a write to the origin and keeps the stored answer to a GET of
# the same URL, which the write may have changed. A 2xx or 3xx answer to an
# unsafe method bans that URL, and the path in its Location, as nginx's front
# invalidates them. A ban on req.* is checked at each lookup of an object older
# than it, until no such object is left.
# https://varnish-cache.org/docs/7.1/reference/vmod_std.html#std-ban
sub vcl_recv {
  # The built-in vcl_recv pipes a method it does not know (WebDAV's REPORT, an
  # API's own) around vcl_backend_response, where the ban is made: every unsafe
  # method is passed instead. CONNECT and PRI keep the built-in's answers.
  # https://varnish-cache.org/docs/7.1/users-guide/vcl-built-in-code.html
  # Plain comparisons, not a regular expression: this runs on every request, a
  # HIT's too, and a GET is decided by the first.
  if (req.method != "GET" && req.method != "HEAD" && req.method != "OPTIONS" && req.method != "TRACE"
      && req.method != "CONNECT" && req.method != "PRI") {
    return (pass);
  }
}

# A ban's arguments are bare words (no quotes), and its terms are all ANDed: a
# Host with spaces in it can only narrow what is banned, never widen it.
sub vcl_backend_response {
  if (bereq.method !~ "^(GET|HEAD|OPTIONS|TRACE)$" && beresp.status >= 200 && beresp.status < 400) {
    std.ban("req.http.host == " + bereq.http.host + " && req.url == " + bereq.url);
    if (beresp.http.Location ~ "^/") {
      std.ban("req.http.host == " + bereq.http.host + " && req.url == " + beresp.http.Location);
    }
  }
}
