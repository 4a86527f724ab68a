# ------------------------------------------------------------------------------
# Varnish's bare cache, for ./run-tests.sh peak --edge varnish
#
# The least config that caches: a backend and a cap on the TTL, and nothing
# else (no limit, no purge, no grace rule, no X-Cache-Status, no log read).
# Everything falls through to Varnish's built-in VCL, which looks GET and HEAD
# up and stores what the origin's Cache-Control allows. peak measures the full
# front (front.vcl) against this, in front of the same back tier: what the full
# edge's features cost on the HIT path is the difference. It is not an edge of
# the suite's: no limit, no PURGE, and stale answers in default_grace (10 s)
# whatever the origin allowed.
#
# Run by the suite as `varnishd -F -T none -n DIR -a 127.0.0.1:PORT -f
# peak-bare.vcl -s malloc,SIZE`, as the full front is (SIZE: --cache-size).
#
# This file is a template: its mustache tag is the port of the back tier the
# full edge started.
# ------------------------------------------------------------------------------
vcl 4.1;

backend back_tier {
  .host = "127.0.0.1";
  .port = "{{backPort}}";
}

# A day at most, as HAProxy's bare cache in peak (its max-age 86400): the
# origin's Cache-Control decides below that.
# https://varnish-cache.org/docs/7.1/reference/vcl-var.html#beresp-ttl
sub vcl_backend_response {
  if (beresp.ttl > 1d) {
    set beresp.ttl = 1d;
  }
}
