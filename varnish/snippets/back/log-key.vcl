
# --- The key the log gives each request -----------------------------------------
# The client's address as the front tier saw it: each varnishd appends the
# address it was reached from to X-Forwarded-For before vcl_recv, so here the
# last value is the front tier's and the client's is the one before it (the
# only value, for a request that came straight here). The origin's limit counts
# every request under one key. varnishncsa reads it as %{VCL_Log:key}x.
# https://varnish-cache.org/docs/7.1/reference/vmod_std.html#std-log
sub vcl_recv {
  std.log("key:" + regsub(req.http.X-Forwarded-For, "^(?:.*,\s*)?([^,\s]+)\s*,\s*[^,\s]+\s*$", "\1"));
}
