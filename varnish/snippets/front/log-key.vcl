
# --- The key the log gives each request -----------------------------------------
# The client's address, as nginx's edge logs it ($remote_addr), also where the
# per-client limit counts by a key the client sends: that key is a credential,
# which no log should hold. varnishncsa reads
# it as %{VCL_Log:key}x (VarnishLog in the suite). Before the limit, which may
# end vcl_recv.
# https://varnish-cache.org/docs/7.1/reference/vmod_std.html#std-log
sub vcl_recv {
  std.log("key:" + client.ip);
}
