package dev.ratecache.appserver.config;

import org.springframework.boot.context.properties.source.ConfigurationPropertyName;

/**
 * What each origin property accepts, worded for the one-line start-up error, so that whoever
 * mistyped a value learns the fix without reading the source.
 */
public final class AcceptedForms {

    static final String ENDPOINT_NAME_PATTERN = "[a-z][a-z0-9-]*";

    // Goes verbatim between the quotes of the ETag, so only characters that never need escaping.
    static final String CONTENT_VERSION_PATTERN = "[A-Za-z0-9][A-Za-z0-9._-]*";

    // Header values: a line break would let configuration inject extra headers.
    static final String SINGLE_LINE_PATTERN = "[^\\r\\n]*\\S[^\\r\\n]*";

    // An absolute path on this origin, as a Location header names it.
    static final String PATH_PATTERN = "/[A-Za-z0-9._~/?=&%-]*";

    // A header field name (RFC 9110 section 5.1: a token).
    static final String HEADER_NAME_PATTERN = "[!#$%&'*+.^_`|~0-9A-Za-z-]+";

    static final String KNOWN_PROPERTIES = "origin.content-version, origin.endpoints.<name>.delay, "
            + "origin.endpoints.<name>.max-age, origin.endpoints.<name>.cache-control, "
            + "origin.endpoints.<name>.set-cookie, origin.endpoints.<name>.x-frame-options, "
            + "origin.endpoints.<name>.content-security-policy, origin.endpoints.<name>.gzip, "
            + "origin.endpoints.<name>.age, "
            + "origin.endpoints.<name>.date-offset, origin.endpoints.<name>.expires, "
            + "origin.endpoints.<name>.expires-after-date, origin.endpoints.<name>.vary, "
            + "origin.endpoints.<name>.cdn-cache-control, origin.endpoints.<name>.writes, "
            + "origin.endpoints.<name>.write-location, origin.endpoints.<name>.hop-by-hop-header, "
            + "origin.stale-while-revalidate, origin.stale-if-error, "
            + "origin.replay.paths-file, origin.replay.default-delay, origin.replay.max-age, "
            + "origin.replay.default-body-bytes, origin.items.count, origin.items.query-cost, "
            + "origin.items.max-age, origin.places.max-age, origin.places.s-maxage, origin.database.pool-size, "
            + "origin.database.acquire-timeout, origin.app-cache, origin.app-cache-ttl";

    /** What the replay mode's paths file must hold; the suite writes it, a person may edit it. */
    public static final String REPLAY_PATHS_FILE = "a CSV file with the header line "
            + "path,requests,delay_ms,body_bytes and one row per path: the path starting with / and without a "
            + "query (quoted where CSV needs it), a count of requests, the delay in milliseconds or empty for "
            + "origin.replay.default-delay, the body size in bytes (0 for an empty body), and optionally a last "
            + "column max_age_s: the path's lifetime in seconds, or empty for origin.replay.max-age; each path once";

    private static final ConfigurationPropertyName ENDPOINTS = ConfigurationPropertyName.of("origin.endpoints");

    private AcceptedForms() {
    }

    /** The accepted form of the named property, for example "a duration such as 100ms, 2s". */
    static String of(ConfigurationPropertyName property) {
        if (ENDPOINTS.isParentOf(property)) {
            return "a lower-case path segment matching " + ENDPOINT_NAME_PATTERN;
        }
        String leaf = property.getLastElement(ConfigurationPropertyName.Form.UNIFORM);
        return switch (leaf) {
            case "delay", "defaultdelay" -> "a duration such as 100ms, 2s";
            case "maxage", "smaxage" -> "a duration such as 3s, 10m";
            case "poolsize" -> "a whole number of connections from 1 to 1000, such as 10";
            case "acquiretimeout" -> "a duration from 250ms to 10m, such as 10s";
            case "cachecontrol" -> "a Cache-Control value such as 'private, max-age=60' or 'no-store', "
                    + "or 'none' for no header";
            case "setcookie" -> "a Set-Cookie value such as 'session=abc; Path=/'";
            case "xframeoptions" -> "an X-Frame-Options value such as SAMEORIGIN";
            case "contentsecuritypolicy" -> "a Content-Security-Policy value such as \"frame-ancestors 'self'\"";
            case "gzip", "writes" -> "true or false";
            case "age" -> "a duration such as 58s (a bare number means seconds)";
            case "dateoffset", "expiresafterdate" -> "a duration such as 60s or -58s";
            case "expires" -> "an Expires value such as 'Thu, 01 Jan 2026 00:00:00 GMT' or 'not a date'";
            case "vary" -> "a Vary value such as 'Accept' or '*'";
            case "cdncachecontrol" -> "a CDN-Cache-Control value such as 'max-age=60'";
            case "writelocation" -> "a path such as /hare/7";
            case "hopbyhopheader" -> "a header name such as X-Hop";
            case "stalewhilerevalidate", "staleiferror" -> "a duration such as 60s, 10m; 0s sends none";
            case "pathsfile" -> REPLAY_PATHS_FILE;
            case "defaultbodybytes" -> "a number of bytes such as 0, 1024";
            case "count" -> "a whole number of items such as 10000, 0 or more";
            case "querycost" -> "a duration such as 5ms, 0ms";
            case "appcache" -> "redis or off";
            case "appcachettl" -> "a duration such as 30s, 5m, more than 0";
            case "contentversion" -> "letters, digits, '.', '_' or '-', such as v1";
            default -> KNOWN_PROPERTIES;
        };
    }
}
