
# --- PURGE of one URL, from the allowed addresses (--purge-allow) ---------------
# A purge removes the object and its variants at once; 200 "Purged" answers it.
# Others get 403, as nginx's front gives them.
# https://varnish-cache.org/docs/7.1/users-guide/purging.html
acl purge {
{{#purgeAllow}}
  {{acl}};
{{/purgeAllow}}
}

sub vcl_recv {
  if (req.method == "PURGE") {
    if (client.ip !~ purge) {
      return (synth(403));
    }
    return (purge);
  }
}
