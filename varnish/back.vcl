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
#
# This file is a template: its mustache tags are the stack spec's values, and
# each partial tag (a snippet's name after ">") is replaced by that snippet (see varnish/README.md).
# ------------------------------------------------------------------------------
vcl 4.1;

{{> snippets/shared/modules.vcl}}
{{> snippets/back/origins.vcl}}
{{> snippets/shared/markers.vcl}}
{{> snippets/back/log-key.vcl}}
{{#clientLimit}}
{{> snippets/back/passed-limit-key.vcl}}
{{> snippets/shared/client-limit.vcl}}
{{/clientLimit}}
{{#backLimit}}
{{> snippets/back/origin-limit.vcl}}
{{/backLimit}}
{{> snippets/back/pass.vcl}}
{{#hasFreshness}}
{{> snippets/back/freshness.vcl}}
{{/hasFreshness}}
