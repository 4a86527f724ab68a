# Rendered from the template varnish/front.vcl by the suite.
# ------------------------------------------------------------------------------
# Front end (edge) tier, in Varnish 7.1 with varnish-modules 0.20
#
# Faces the clients. Limits each client's request rate by its address or a key
# it sends (with a per-address ceiling beside the key's) and, with
# --limit-conn, its requests in flight by its address; answers from the edge
# cache when it can (in grace where the origin allowed it, one fetch for many
# waiting requests), and passes everything else to the back end tier. The same
# job as nginx/front-end.conf, in Varnish's own terms; what it cannot do
# (queue, a fleet, stale whatever the origin said, TLS) is refused before it
# is rendered.
#
# One process per tier, as with nginx: the CPU of each tier is measured apart.
# Run by the suite as `varnishd -F -n DIR -a ADDRESS:PORT -f front.vcl -T none`.
#
# VCL concatenates every definition of a subroutine in the order they appear,
# and the first return ends it: each snippet below adds its own vcl_recv lines,
# and the limit comes first so that hits count too (nginx's --limit-scope all;
# with --limit-scope misses the back tier applies it, on the key this one
# passes).
# https://varnish-cache.org/docs/7.1/users-guide/vcl-built-in-subs.html
# ------------------------------------------------------------------------------
vcl 4.1;

# --- The modules this tier uses -----------------------------------------------
# std for durations (stale-if-error); directors for the origins' round robin;
# vsthrottle (varnish-modules) for a limit, only where this tier has one.
# https://varnish-cache.org/docs/7.1/reference/vmod_std.html
import std;
# https://github.com/varnish/varnish-modules/blob/0.20.0/src/vmod_vsthrottle.vcc
import vsthrottle;

# --- The back end tier ------------------------------------------------------------
# Varnish adds the client's address to X-Forwarded-For by itself, as nginx's
# front sends it. --read-timeout: how long this tier waits for the next one.
# https://varnish-cache.org/docs/7.1/reference/vcl-backend.html
backend back_tier {
  .host = "127.0.0.1";
  .port = "9080";
  .first_byte_timeout = 60s;
  .between_bytes_timeout = 60s;
}

# --- What this tier marks on a request, for its own later subroutines ----------
# A request header is the only per-request note VCL 4.1 keeps from vcl_recv to
# vcl_synth and vcl_deliver; a client's own copy is removed first, so that no
# one can mark their request as limited, or as holding a token of --limit-conn
# that it never took. Each unset is work on every request, a HIT's too: only
# the markers this tier sets are removed.
sub vcl_recv {
  unset req.http.X-Ratecache-Limited;
}

# Nor does the next tier see them.
# https://varnish-cache.org/docs/7.1/users-guide/vcl-built-in-subs.html#vcl-backend-fetch
sub vcl_backend_fetch {
  unset bereq.http.X-Ratecache-Limited;
}

# --reject-status carries --retry-after; only a rejection by this tier's limit
# is marked, not a PURGE refused or answered. The answer ends here: Varnish's
# built-in vcl_synth would put Retry-After: 5 on every synthetic answer, ours
# included, and an HTML page around it.
# https://varnish-cache.org/docs/7.1/users-guide/vcl-built-in-code.html
sub vcl_synth {
  if (req.http.X-Ratecache-Limited) {
    set resp.http.Retry-After = "1";
  }
  set resp.http.Content-Type = "text/plain; charset=utf-8";
  set resp.body = resp.reason + {"
"};
  return (deliver);
}

# --- Per-client rate limit, by address ---
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
# Here: rate 100 r/s, burst 200.
# https://github.com/varnish/varnish-modules/blob/0.20.0/src/vmod_vsthrottle.vcc
# The address is client.identity: at the edge nothing sets it, so it is the
# client's address as the connection recorded it once (client.ip would be
# formatted into a string again on every request, a third of the limit's price
# on a HIT); behind the edge (--limit-scope misses) it is the client's address
# as the edge passed it (snippets/back/passed-limit-key.vcl).
# https://varnish-cache.org/docs/7.1/reference/vcl-var.html#client-identity

# A subroutine of its own, so that an --allow network can skip it; its return
# ends vcl_recv as if written there.
# https://varnish-cache.org/docs/7.1/users-guide/vcl-syntax.html#subroutines
sub ratecache_client_limit {
  if (vsthrottle.is_denied(client.identity, 201, 2010ms)) {
    set req.http.X-Ratecache-Limited = "1";
    std.log("limit:REJECTED");
    return (synth(429));
  }
  # The outcome for the log, read as %{VCL_Log:limit}x.
  std.log("limit:PASSED");
}

sub vcl_recv {
  call ratecache_client_limit;
}

# --- A request body read whole before it is passed on ------------------------------
# Varnish streams a request body to the back tier as it arrives: a chunked body
# whose framing breaks midway (a bad chunk size, a missing CRLF) has already
# started a request at the origin, and the client gets a 503. Read first, as
# nginx's front reads a body before passing it (proxy_request_buffering), such a
# body reaches no one: Varnish closes the connection on it, unanswered
# (docs/smuggling.md). 1 MB is nginx's client_max_body_size: a body its
# Content-Length says is longer is a 413, as there; a longer chunked one ends
# the connection too.
# https://varnish-cache.org/docs/7.1/reference/vmod_std.html#std-cache-req-body
sub vcl_recv {
  if (std.integer(req.http.Content-Length, 0) > 1048576) {
    return (synth(413));
  }
  if (!std.cache_req_body(1MB)) {
    return (synth(400));
  }
}

# --- PURGE of one URL, from the allowed addresses (--purge-allow) ---------------
# A purge removes the object and its variants at once; 200 "Purged" answers it.
# Others get 403, as nginx's front gives them.
# https://varnish-cache.org/docs/7.1/users-guide/purging.html
acl purge {
  "127.0.0.1";
}

sub vcl_recv {
  if (req.method == "PURGE") {
    if (client.ip !~ purge) {
      return (synth(403));
    }
    return (purge);
  }
}

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

# --- The edge cache, used -------------------------------------------------------
# Requests with Authorization or a cookie are passed: neither answered from the
# cache nor stored, as nginx's front does (its proxy_cache_bypass). Varnish's
# built-in vcl_recv passes them too; the rule is here so that nothing later
# (a cookie-stripping rule of your own) can make them cacheable by mistake.
# Everything else falls through to the built-in vcl_recv, which looks GET and
# HEAD up and passes other methods. Misses of one object wait for a single
# fetch (request coalescing, Varnish's default): nginx's proxy_cache_lock.
# https://varnish-cache.org/docs/7.1/users-guide/vcl-built-in-code.html
sub vcl_recv {
  if (req.http.Authorization || req.http.Cookie) {
    return (pass);
  }
}

# X-Cache-Status as nginx's $upstream_cache_status means it: HIT from the
# cache, STALE for an object served in grace (its TTL is over; a background
# fetch refreshes it), BYPASS for a request passed for its Authorization or
# cookie (a passed object is never a hit), MISS otherwise. A request that waited
# on another's fetch of the same object is a HIT, as it reached no origin.
# obj.ttl in vcl_deliver is what remains of the object's TTL. The HIT is tested
# first: it is the answer this tier gives most, and each test costs it.
# https://varnish-cache.org/docs/7.1/reference/vcl-var.html#obj-hits
sub vcl_deliver {
  if (obj.hits > 0) {
    if (obj.ttl > 0s) {
      set resp.http.X-Cache-Status = "HIT";
    } else {
      set resp.http.X-Cache-Status = "STALE";
    }
  } else if (req.http.Authorization || req.http.Cookie) {
    set resp.http.X-Cache-Status = "BYPASS";
  } else {
    set resp.http.X-Cache-Status = "MISS";
  }
}

# --- Stored: only what the origin gave a lifetime, and a later request can match ---
# Varnish gives a response without max-age, s-maxage or Expires a lifetime of
# its own (default_ttl, 120 s), and reads an Expires that is not a date as none
# at all, where RFC 9111 section 5.3 says already expired. The suite's edges
# store only what the origin gave a lifetime, as nginx's front does. Nor a
# response with Vary: * among other names, which the built-in VCL only catches
# alone (RFC 9111 section 4.1: a "*" never matches). A TTL of 0 makes the
# built-in vcl_backend_response mark it hit-for-miss.
# https://varnish-cache.org/docs/7.1/users-guide/vcl-built-in-code.html
# https://varnish-cache.org/docs/7.1/reference/vmod_std.html#std-time
sub vcl_backend_response {
  if (beresp.http.Cache-Control !~ "(?i)(^|,)\s*(max-age|s-maxage)\s*="
      && std.time(beresp.http.Expires, std.time(integer=0)) == std.time(integer=0)) {
    set beresp.ttl = 0s;
  }
  if (beresp.http.Vary ~ "(^|,)\s*\*\s*(,|$)") {
    set beresp.ttl = 0s;
  }
}

# --- Grace: stale content only where the origin allowed it (--stale rfc) ---------
# Varnish 7.1 reads stale-while-revalidate into beresp.grace by itself, and
# without it gives every object default_grace (10 s): an expired object would
# be served while it is refreshed although the origin never allowed it.
# https://varnish-cache.org/docs/7.1/users-guide/vcl-grace.html
sub vcl_backend_response {
  if (beresp.http.Cache-Control !~ "stale-while-revalidate=") {
    set beresp.grace = 0s;
  }
  # stale-if-error (RFC 5861) Varnish does not read. Its only way to serve
  # stale is grace, so the object is kept in grace as long as stale-if-error
  # allows: within it an expired object is served while a background fetch
  # refreshes it, and a failing fetch leaves it in place (below). Unlike nginx,
  # the first request after expiry is then answered stale even while the
  # origin is up: Varnish 7.1 cannot hold a client for a refresh and fall back
  # on the stale object when it fails.
  if (beresp.http.Cache-Control ~ "stale-if-error=[0-9]+"
      && std.duration(regsub(beresp.http.Cache-Control, "^.*stale-if-error=([0-9]+).*$", "\1s"), 0s) > beresp.grace) {
    set beresp.grace = std.duration(regsub(beresp.http.Cache-Control, "^.*stale-if-error=([0-9]+).*$", "\1s"), 0s);
  }
  # must-revalidate and proxy-revalidate forbid serving it stale, and s-maxage
  # means proxy-revalidate to a shared cache (RFC 9111 sections 4.2.4, 5.2.2.2,
  # 5.2.2.8, 5.2.2.10), whatever stale-while-revalidate or stale-if-error beside
  # them say: Varnish reads stale-while-revalidate without looking at them.
  if (beresp.http.Cache-Control ~ "(?i)must-revalidate|proxy-revalidate|s-maxage") {
    set beresp.grace = 0s;
  }
  # A background refresh that gets an error is dropped: the stale object stays
  # and is served until its grace ends.
  # https://varnish-cache.org/docs/7.1/reference/vcl-var.html#bereq-is-bgfetch
  if (beresp.status >= 500 && bereq.is_bgfetch) {
    return (abandon);
  }
}

# The same when the origin cannot be reached at all.
# https://varnish-cache.org/docs/7.1/users-guide/vcl-built-in-subs.html#vcl-backend-error
sub vcl_backend_error {
  if (bereq.is_bgfetch) {
    return (abandon);
  }
}
