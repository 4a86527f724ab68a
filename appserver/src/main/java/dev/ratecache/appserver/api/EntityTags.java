package dev.ratecache.appserver.api;

import java.util.List;

/**
 * Decides whether an {@code If-None-Match} request header matches the current entity tag.
 *
 * <p>Uses the weak comparison that RFC 9110 prescribes for If-None-Match, so a cache that
 * revalidates with {@code W/"hare-v1"} (as Nginx does after gzip) still gets a 304.
 */
final class EntityTags {

    private EntityTags() {
    }

    /** The strong tag for an endpoint's content, quoted as the header carries it. */
    static String of(String endpoint, String contentVersion) {
        return "\"" + endpoint + "-" + contentVersion + "\"";
    }

    /** Whether any of the If-None-Match header values lists {@code etag} or is {@code *}. */
    static boolean anyMatches(List<String> ifNoneMatchHeaders, String etag) {
        for (String header : ifNoneMatchHeaders) {
            if (listMatches(header, etag)) {
                return true;
            }
        }
        return false;
    }

    private static boolean listMatches(String header, String etag) {
        if (header.strip().equals("*")) {
            return true;
        }
        int i = 0;
        while (i < header.length()) {
            char c = header.charAt(i);
            if (c == ',' || Character.isWhitespace(c)) {
                i++;
                continue;
            }
            int start = header.startsWith("W/", i) ? i + 2 : i;
            if (start >= header.length() || header.charAt(start) != '"') {
                // Not an entity tag; skip to the next list member rather than give up on the rest.
                int comma = header.indexOf(',', i);
                i = (comma < 0) ? header.length() : comma + 1;
                continue;
            }
            // Commas may appear inside the quotes, so a member ends at its closing quote.
            int end = header.indexOf('"', start + 1);
            if (end < 0) {
                return false;
            }
            if (header.substring(start, end + 1).equals(etag)) {
                return true;
            }
            i = end + 1;
        }
        return false;
    }
}
