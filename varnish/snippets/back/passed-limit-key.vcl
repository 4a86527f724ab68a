
# --- The client and its key, as the edge passed them (--limit-scope misses) -------
# This tier applies the per-client limit (snippets/shared/client-limit.vcl)
# behind the edge cache, on the client's address and the key the edge read and
# checked (X-Limit-Key, set by snippets/front/pass-limit-key.vcl). Both are
# believed only from the edge's own address, as nginx's back end believes them
# (nginx/snippets/back/passed-limit-key.conf, shared/real-ip.conf): anyone else
# calling this tier is counted by its own address, and without a key.
# https://varnish-cache.org/docs/7.1/reference/vcl.html#access-control-list-acl
acl ratecache_edge {
  "{{edgeAddress}}";
}

sub vcl_recv {
  if (client.ip ~ ratecache_edge) {
    # The X-Forwarded-For value before the one this tier appended (the
    # edge's): the client's. client.identity is what the limit counts an
    # address by; the log's key (snippets/back/log-key.vcl) is the same.
    # https://varnish-cache.org/docs/7.1/reference/vcl-var.html#client-identity
    set client.identity = regsub(req.http.X-Forwarded-For, "^(?:.*,\s*)?([^,\s]+)\s*,\s*[^,\s]+\s*$", "\1");
  }
}
{{#keyed}}

sub ratecache_read_key {
  unset req.http.X-Ratecache-Key;
  if (client.ip ~ ratecache_edge) {
    set req.http.X-Ratecache-Key = req.http.X-Limit-Key;
  }
  # Nor does the origin see it.
  unset req.http.X-Limit-Key;
}
{{/keyed}}
