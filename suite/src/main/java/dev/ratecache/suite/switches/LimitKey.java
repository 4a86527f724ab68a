package dev.ratecache.suite.switches;

import dev.ratecache.accesslog.Printable;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the per-client limit counts by ({@code --limit-key}): the client's address (the TCP peer,
 * nginx's {@code $binary_remote_addr}), or a key the client sends in a header, a cookie or a query
 * argument, each its own nginx variable.
 */
public record LimitKey(Kind kind, String name) {
    public enum Kind { ADDR, HEADER, COOKIE, ARG }

    public static final String ACCEPTED = "addr, header:NAME, cookie:NAME or arg:NAME";
    public static final LimitKey ADDR = new LimitKey(Kind.ADDR, "");
    // nginx drops header names with underscores by default (underscores_in_headers off); a cookie's or
    // argument's variable name ends at the first character outside [A-Za-z0-9_].
    private static final Pattern HEADER = Pattern.compile("header:([A-Za-z0-9][A-Za-z0-9-]{0,63})");
    private static final Pattern OTHER = Pattern.compile("(cookie|arg):([A-Za-z0-9_]{1,64})");

    public static LimitKey parse(String text) {
        String t = text.trim();
        if (t.equalsIgnoreCase("addr")) {
            return ADDR;
        }
        Matcher h = HEADER.matcher(t);
        if (h.matches()) {
            return new LimitKey(Kind.HEADER, h.group(1));
        }
        Matcher o = OTHER.matcher(t);
        if (o.matches()) {
            return new LimitKey(o.group(1).equals("cookie") ? Kind.COOKIE : Kind.ARG, o.group(2));
        }
        throw new IllegalArgumentException("'" + Printable.escape(text) + "' is not a limit key: use " + ACCEPTED
                + " (a header name of letters, digits and dashes; a cookie or argument name of letters, digits and _)");
    }

    public boolean byAddress() {
        return kind == Kind.ADDR;
    }

    /** Where the client puts the key, in words. */
    public String where() {
        return switch (kind) {
            case ADDR -> "its address";
            case HEADER -> "the header " + name;
            case COOKIE -> "the cookie " + name;
            case ARG -> "the query argument " + name;
        };
    }

    @Override
    public String toString() {
        return kind == Kind.ADDR ? "addr" : kind.name().toLowerCase(Locale.ROOT) + ":" + name;
    }
}
