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
#
# This file is a template: its mustache tags are the stack spec's values, and
# each partial tag (a snippet's name after ">") is replaced by that snippet (see varnish/README.md).
# ------------------------------------------------------------------------------
vcl 4.1;

{{> snippets/shared/modules.vcl}}
{{> snippets/front/to-back-tier.vcl}}
{{#frontLimit}}
{{#missingReject}}
{{> snippets/front/missing-key.vcl}}
{{/missingReject}}
{{/frontLimit}}
{{> snippets/shared/markers.vcl}}
{{#frontLimit}}
{{#keyed}}
{{> snippets/front/limit-key.vcl}}
{{/keyed}}
{{/frontLimit}}
{{#clientLimit}}
{{> snippets/shared/client-limit.vcl}}
{{/clientLimit}}
{{#passKey}}
{{> snippets/front/pass-limit-key.vcl}}
{{/passKey}}
{{#connLimit}}
{{> snippets/front/conn-limit.vcl}}
{{/connLimit}}
{{> snippets/front/request-body.vcl}}
{{#cache}}
{{> snippets/front/purge.vcl}}
{{> snippets/front/invalidation.vcl}}
{{> snippets/front/cache.vcl}}
{{> snippets/front/lifetime.vcl}}
{{> snippets/front/grace.vcl}}
{{/cache}}
{{^cache}}
{{> snippets/front/no-cache.vcl}}
{{/cache}}
