
# --- Per-client rate limit, by {{keyWhere}} ---
# At the edge; with --limit-scope misses at the back tier instead, behind the
# edge cache, so that only the cache's misses (and the requests it passes)
# spend a client's quota, as nginx's back end applies it then.
# vsthrottle is a token bucket per key: LIMIT tokens, refilled at LIMIT per
# PERIOD, and a request without a token is denied; it never queues. nginx's
# rate R and burst B map onto it as LIMIT = B+1 (nginx passes B+1 at once from
# an idle bucket) and PERIOD = (B+1)/R seconds, so that it refills R tokens a
# second, nginx's rate. In 0.20 the refill is truncated to whole tokens and
# the fraction is lost at every pass (varnish-modules#237): a client sending
# at about R gets less than R through. A denied request takes no token, as
# with nginx. See varnish/README.md.
{{^tiered}}
# Here: rate {{rate}} r/s, burst {{burst}}.
{{/tiered}}
{{#tiered}}
# Here, per tier of keys (--tiers):
{{#keyTiers}}
#   {{name}}: rate {{rate}} r/s, burst {{burst}}
{{/keyTiers}}
{{/tiered}}
# https://github.com/varnish/varnish-modules/blob/0.20.0/src/vmod_vsthrottle.vcc
# The address is client.identity: at the edge nothing sets it, so it is the
# client's address as the connection recorded it once (client.ip would be
# formatted into a string again on every request, a third of the limit's price
# on a HIT); behind the edge (--limit-scope misses) it is the client's address
# as the edge passed it (snippets/back/passed-limit-key.vcl).
# https://varnish-cache.org/docs/7.1/reference/vcl-var.html#client-identity
{{#allow}}

# --allow: networks never counted per client (nor by the address ceiling); the
# back's limit for the whole origin still counts them, and their requests log
# no outcome, as nginx's limit gives none for a request it does not count.
# https://varnish-cache.org/docs/7.1/reference/vcl.html#access-control-list-acl
acl limit_exempt {
{{#acls}}
  {{acl}};
{{/acls}}
}
{{/allow}}

# A subroutine of its own, so that an --allow network can skip it; its return
# ends vcl_recv as if written there.
# https://varnish-cache.org/docs/7.1/users-guide/vcl-syntax.html#subroutines
sub ratecache_client_limit {
{{^tiered}}
  if (vsthrottle.is_denied({{throttleKey}}, {{limit}}, {{periodMs}}ms)) {
    set req.http.X-Ratecache-Limited = "1";
    std.log("limit:REJECTED");
    return (synth({{rejectStatus}}));
  }
{{/tiered}}
{{#tiered}}
  # The bucket of the request's tier: its key's own, or the address's for a
  # request without one (anonymous). Each tier's numbers make its buckets apart
  # from any other tier's, and a key is in one tier only.
{{#keyTiers}}
  if (req.http.X-Ratecache-Tier == "{{name}}" && vsthrottle.is_denied(req.http.X-Ratecache-Key, {{limit}}, {{periodMs}}ms)) {
    set req.http.X-Ratecache-Limited = "1";
    std.log("limit:REJECTED");
    return (synth({{rejectStatus}}));
  }
{{/keyTiers}}
{{/tiered}}
{{#ceiling}}
  # The address ceiling: whatever keys an address sends, at most rate {{rate}} r/s,
  # burst {{burst}}, a bucket of {{limit}} over {{periodMs}} ms. A key is the client's own
  # choice: without it, a client that made up a new key per request would never
  # be limited. Its own bucket: vsthrottle finds one by key, limit and period,
  # and no key above is a bare address. Unlike nginx, which takes from no zone
  # for a request one of them rejects, a key's token is spent before this
  # ceiling may reject.
  if (vsthrottle.is_denied(client.identity, {{limit}}, {{periodMs}}ms)) {
    set req.http.X-Ratecache-Limited = "1";
    std.log("limit:REJECTED");
    return (synth({{rejectStatus}}));
  }
{{/ceiling}}
{{#logPassed}}
  # The outcome for the log, read as %{VCL_Log:limit}x.
  std.log("limit:PASSED");
{{/logPassed}}
{{^logPassed}}
  # No PASSED here: the origin's limit after this one logs its outcome, and
  # varnishncsa keeps a key's first value.
{{/logPassed}}
}

sub vcl_recv {
{{#keyed}}
  # The key, read by ratecache_read_key ({{keySnippet}}).
  # Valid as nginx's edge has it (nginx/snippets/shared/limit-key.conf): at
  # most {{maxKeyBytes}} bytes (PCRE counts bytes here), no control character{{#byArg}}, not
  # even percent-encoded, as the argument is read undecoded{{/byArg}}. Held in a
  # header only until the limit has counted it, never passed on. "k" keeps a
  # key from being an address's bucket.
  call ratecache_read_key;
  if (req.http.X-Ratecache-Key ~ "{{keyPattern}}") {
    set req.http.X-Ratecache-Key = "k" + req.http.X-Ratecache-Key;
  } else {
{{#missingReject}}
    # --missing-key reject: 401 and one line saying where the key goes
    # (snippets/front/missing-key.vcl), before any limit counts the request.
    set req.http.X-Ratecache-Missing-Key = "1";
    return (synth(401));
{{/missingReject}}
{{^missingReject}}
    # --missing-key addr: counted by its address.
    set req.http.X-Ratecache-Key = "a" + client.identity;
{{/missingReject}}
  }
{{/keyed}}
{{#tiered}}
  # The key's tier (--tiers): a listed key, exactly as listed, case included,
  # is in its tier; every other key, and a request without one, in anonymous.
  # Each tier's keys are one string, each key between spaces: a key of the
  # tiers file's characters (no space among them) is found in it only as a
  # whole listed key. A substring search, where VCL has no map: its time grows
  # with the number of keys, as a regular expression's would, and a long
  # alternation of keys passes PCRE's size limit.
  # https://github.com/varnish/varnish-modules/blob/0.20.0/src/vmod_str.vcc
  set req.http.X-Ratecache-Tier = "anonymous";
  if (req.http.X-Ratecache-Key ~ "^k[A-Za-z0-9._~+/=:@-]+$") {
{{#keyTiers}}
{{#listed}}
    if (str.contains("{{keys}}", " " + req.http.X-Ratecache-Key + " ")) {
      set req.http.X-Ratecache-Tier = "{{name}}";
    }
{{/listed}}
{{/keyTiers}}
  }
{{/tiered}}
{{^allow}}
  call ratecache_client_limit;
{{/allow}}
{{#allow}}
  if ({{clientAddress}} !~ limit_exempt) {
    call ratecache_client_limit;
  }
{{/allow}}
{{#keyed}}
  unset req.http.X-Ratecache-Key;
{{/keyed}}
{{#tiered}}
  unset req.http.X-Ratecache-Tier;
{{/tiered}}
}
