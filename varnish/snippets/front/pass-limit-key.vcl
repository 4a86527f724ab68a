
# --- The key, passed to the back tier (--limit-scope misses) ----------------------
# The back tier applies the per-client limit behind the cache, so it needs the
# key this tier read and checked (valid as snippets/shared/client-limit.vcl
# has it). Set, not passed through: a client's own X-Limit-Key is replaced, by
# nothing if it sent no valid key, and the back tier believes the header only
# from this tier (snippets/back/passed-limit-key.vcl), as nginx's edge and back
# end do (nginx/snippets/front/pass-limit-key.conf).
sub vcl_recv {
  unset req.http.X-Limit-Key;
  call ratecache_read_key;
  if (req.http.X-Ratecache-Key ~ "{{keyPattern}}") {
    set req.http.X-Limit-Key = req.http.X-Ratecache-Key;
{{#missingReject}}
  } else {
    # --missing-key reject: 401 and one line saying where the key goes
    # (snippets/front/missing-key.vcl), here at the edge as nginx's answers it.
    set req.http.X-Ratecache-Missing-Key = "1";
    return (synth(401));
{{/missingReject}}
  }
  unset req.http.X-Ratecache-Key;
}
