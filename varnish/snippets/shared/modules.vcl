# --- The modules this tier uses -----------------------------------------------
# std for durations (stale-if-error); directors for the origins' round robin;
# vsthrottle (varnish-modules) for a limit, only where this tier has one.
# https://varnish-cache.org/docs/7.1/reference/vmod_std.html
import std;
{{#directors}}
# https://varnish-cache.org/docs/7.1/reference/vmod_directors.html
import directors;
{{/directors}}
{{#throttled}}
# https://github.com/varnish/varnish-modules/blob/0.20.0/src/vmod_vsthrottle.vcc
import vsthrottle;
{{/throttled}}
{{#tiered}}
# str (varnish-modules) to find a key among its tier's (--tiers).
# https://github.com/varnish/varnish-modules/blob/0.20.0/src/vmod_str.vcc
import str;
{{/tiered}}
{{#cookieKey}}
# cookie for --limit-key cookie:NAME, part of Varnish itself since 6.4.
# https://varnish-cache.org/docs/7.1/reference/vmod_cookie.html
import cookie;
{{/cookieKey}}
