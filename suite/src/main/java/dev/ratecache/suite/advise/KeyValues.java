package dev.ratecache.suite.advise;

import dev.ratecache.accesslog.LoggedRequest;
import dev.ratecache.suite.explain.KeyExpr;
import java.math.BigInteger;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Locale;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * A limit's key ({@link KeyExpr}) evaluated for one logged request, from what the log holds: the
 * address always, an argument from the logged URI, the server's name; a header or a cookie only
 * when the log carries it, which an access log hardly ever does, so such a key is "not known" and
 * the request not predicted. A map compares strings ignoring case and tries its regexes in order
 * after them (ngx_http_map_find); a geo takes the longest network that holds the address.
 */
public final class KeyValues {
    /** The key's value, or why the log cannot give it. */
    public record Value(String key, String unknown) {
        static Value of(String key) {
            return new Value(key, null);
        }

        static Value notKnown(String why) {
            return new Value(null, why);
        }

        public boolean known() {
            return unknown == null;
        }
    }

    private final String serverName;

    /** @param serverName the chosen server's first name, for {@code $server_name} */
    public KeyValues(String serverName) {
        this.serverName = serverName;
    }

    /** {@code key}'s value for {@code r}; an empty value means nginx counts the request under no key. */
    public Value of(KeyExpr key, LoggedRequest r) {
        if (key instanceof KeyExpr.Address) {
            return Value.of(r.client());
        }
        if (key instanceof KeyExpr.Literal l) {
            return Value.of(l.text());
        }
        if (key instanceof KeyExpr.PerServer) {
            return Value.of(serverName);
        }
        if (key instanceof KeyExpr.Arg a) {
            return Value.of(arg(r.uri(), a.arg()));
        }
        if (key instanceof KeyExpr.Header h) {
            return Value.notKnown("the key uses the " + h.header() + " header (" + h.variable()
                    + "), which the log does not carry");
        }
        if (key instanceof KeyExpr.Cookie c) {
            return Value.notKnown("the key uses the " + c.cookie() + " cookie (" + c.variable()
                    + "), which the log does not carry");
        }
        if (key instanceof KeyExpr.Concat c) {
            return concat(c, r);
        }
        if (key instanceof KeyExpr.Mapped m) {
            return mapped(m, r);
        }
        return Value.notKnown("the key uses " + ((KeyExpr.Unknown) key).variable() + ", which the model cannot evaluate");
    }

    private Value concat(KeyExpr.Concat c, LoggedRequest r) {
        StringBuilder s = new StringBuilder();
        for (KeyExpr part : c.parts()) {
            Value v = of(part, r);
            if (!v.known()) {
                return v;
            }
            s.append(v.key());
        }
        return Value.of(s.toString());
    }

    private Value mapped(KeyExpr.Mapped m, LoggedRequest r) {
        Value source = of(m.source(), r);
        if (!source.known()) {
            return source;
        }
        return m.geo() ? geo(m, source.key(), r) : map(m, source.key(), r);
    }

    /** Exact strings first, ignoring case; then the regexes in the order written; then the default. */
    private Value map(KeyExpr.Mapped m, String source, LoggedRequest r) {
        for (KeyExpr.Entry e : m.entries()) {
            if (!e.match().startsWith("~") && !e.match().startsWith("*.") && !e.match().endsWith(".*")
                    && unescaped(e.match()).equalsIgnoreCase(source)) {
                return of(e.value(), r);
            }
        }
        for (KeyExpr.Entry e : m.entries()) {
            if (e.match().startsWith("*.") || e.match().endsWith(".*")) {
                return Value.notKnown("the key's map " + m.variable() + " (" + m.where() + ") has a hostname mask ("
                        + e.match() + "), which the model does not match");
            }
        }
        for (KeyExpr.Entry e : m.entries()) {
            if (e.match().startsWith("~")) {
                boolean insensitive = e.match().startsWith("~*");
                String regex = e.match().substring(insensitive ? 2 : 1);
                try {
                    if (Pattern.compile(regex, insensitive ? Pattern.CASE_INSENSITIVE : 0).matcher(source).find()) {
                        return of(e.value(), r);
                    }
                } catch (PatternSyntaxException x) {
                    return Value.notKnown("the key's map " + m.variable() + " (" + m.where() + ") has a regex Java cannot"
                            + " read: " + e.match());
                }
            }
        }
        return of(m.otherwise(), r);
    }

    /** A map's source value may start with a backslash to escape a leading ~ or a reserved word. */
    private static String unescaped(String match) {
        return match.startsWith("\\") ? match.substring(1) : match;
    }

    /** The longest network of the geo that holds the address; its default otherwise. */
    private Value geo(KeyExpr.Mapped m, String source, LoggedRequest r) {
        byte[] address = address(source);
        if (address == null) {
            return of(m.otherwise(), r);
        }
        KeyExpr.Entry best = null;
        int bestBits = -1;
        for (KeyExpr.Entry e : m.entries()) {
            int bits = contains(e.match(), address);
            if (bits == -2) {
                return Value.notKnown("the key's geo " + m.variable() + " (" + m.where() + ") has an entry the model"
                        + " does not match (" + e.match() + ")");
            }
            if (bits > bestBits) {
                bestBits = bits;
                best = e;
            }
        }
        return of(best == null ? m.otherwise() : best.value(), r);
    }

    /** The network's prefix length when it holds {@code address}; -1 when it does not; -2 when it is no network. */
    static int contains(String network, byte[] address) {
        int slash = network.indexOf('/');
        String base = slash < 0 ? network : network.substring(0, slash);
        byte[] net = address(base);
        if (net == null) {
            return -2;
        }
        int bits;
        try {
            bits = slash < 0 ? net.length * 8 : Integer.parseInt(network.substring(slash + 1));
        } catch (NumberFormatException e) {
            return -2;
        }
        if (net.length != address.length || bits < 0 || bits > net.length * 8) {
            return -1;
        }
        BigInteger mask = bits == 0 ? BigInteger.ZERO
                : BigInteger.ONE.shiftLeft(bits).subtract(BigInteger.ONE).shiftLeft(net.length * 8 - bits);
        BigInteger a = new BigInteger(1, address).and(mask);
        BigInteger n = new BigInteger(1, net).and(mask);
        return a.equals(n) ? bits : -1;
    }

    /** An IPv4 or IPv6 literal's bytes (never a name lookup); null for anything else. */
    static byte[] address(String text) {
        String t = text.strip().toLowerCase(Locale.ROOT);
        boolean v4 = t.matches("\\d{1,3}(\\.\\d{1,3}){3}");
        boolean v6 = t.contains(":") && t.matches("[0-9a-f:.]+");
        if (!v4 && !v6) {
            return null;
        }
        try {
            return InetAddress.getByName(t).getAddress();
        } catch (UnknownHostException e) {
            return null;
        }
    }

    /**
     * {@code $arg_NAME}: the first argument of that name (compared ignoring case, as nginx does), its
     * value as sent (not decoded); empty when the query has none.
     */
    static String arg(String uri, String name) {
        int q = uri.indexOf('?');
        if (q < 0) {
            return "";
        }
        for (String pair : uri.substring(q + 1).split("&")) {
            // nginx (ngx_http_arg) takes only NAME=...: an argument without '=' is none.
            int eq = pair.indexOf('=');
            if (eq >= 0 && pair.substring(0, eq).equalsIgnoreCase(name)) {
                return pair.substring(eq + 1);
            }
        }
        return "";
    }
}
