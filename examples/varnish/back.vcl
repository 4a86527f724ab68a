# Rendered from the template varnish/back.vcl by the suite.
# ------------------------------------------------------------------------------
# Back end tier, in Varnish 7.1 with varnish-modules 0.20
#
# Sits between the front end tier and the origin(s). Holds the origin's
# request rate as a whole, whoever asks, and spreads the rest over the
# origins. With --limit-scope misses it applies the per-client limit too,
# so that only what the edge cache missed counts. The same job as
# nginx/back-end.conf's, in Varnish's terms. It stores nothing: the cache is
# the front's. With --freshness it gives a lifetime to responses whose origin
# gave none.
#
# Run by the suite as `varnishd -F -n DIR -a 127.0.0.1:PORT -f back.vcl -T none`.
# ------------------------------------------------------------------------------
vcl 4.1;

# --- The modules this tier uses -----------------------------------------------
# std for durations (stale-if-error); directors for the origins' round robin;
# vsthrottle (varnish-modules) for a limit, only where this tier has one.
# https://varnish-cache.org/docs/7.1/reference/vmod_std.html
import std;
# https://varnish-cache.org/docs/7.1/reference/vmod_directors.html
import directors;
# https://github.com/varnish/varnish-modules/blob/0.20.0/src/vmod_vsthrottle.vcc
import vsthrottle;

# --- The origin(s) ------------------------------------------------------------------
# Several origins take turns, as nginx's default --balance round-robin.
# --read-timeout: how long this tier waits for an origin's response.
# https://varnish-cache.org/docs/7.1/reference/vmod_directors.html#new-xround-robin-directors-round-robin
backend origin1 {
  .host = "127.0.0.1";
  .port = "8080";
  .first_byte_timeout = 60s;
  .between_bytes_timeout = 60s;
}

sub vcl_init {
  new origins = directors.round_robin();
  origins.add_backend(origin1);
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

# --- The origin's limit, for all clients together --------------------------------
# One vsthrottle bucket on a constant key, so every request counts against the
# same tokens, as nginx's back end limit does by the front end's one address.
# Rate 10 r/s, burst 50: LIMIT = B+1 over PERIOD = (B+1)/R, as in
# snippets/shared/client-limit.vcl (see there, and varnish/README.md, why).
# https://github.com/varnish/varnish-modules/blob/0.20.0/src/vmod_vsthrottle.vcc
sub vcl_recv {
  if (vsthrottle.is_denied("origin", 51, 5100ms)) {
    set req.http.X-Ratecache-Limited = "1";
    std.log("limit:REJECTED");
    return (synth(429));
  }
  # The outcome for the log, read as %{VCL_Log:limit}x.
  std.log("limit:PASSED");
}

# --- Everything else to the origins, stored nowhere ---------------------------------
# The back tier caches nothing (the cache is the front's): each request is
# passed, so two of the same URL at once are two origin requests, not one.
# https://varnish-cache.org/docs/7.1/users-guide/vcl-built-in-subs.html#vcl-recv
sub vcl_recv {
  set req.backend_hint = origins.backend();
  return (pass);
}
