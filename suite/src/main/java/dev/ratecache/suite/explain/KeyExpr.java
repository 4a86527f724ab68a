package dev.ratecache.suite.explain;

import java.util.ArrayList;
import java.util.List;

/**
 * What a limit's key ({@code limit_req_zone KEY ...}) is made of, as far as the model can tell
 * which requests share a key: the client's address, a header, a cookie, an argument, a constant, a
 * {@code map} or {@code geo} of these, or a variable it cannot evaluate. nginx does not count a
 * request whose key is empty: a map or geo giving "" exempts it.
 */
@com.fasterxml.jackson.annotation.JsonTypeInfo(use = com.fasterxml.jackson.annotation.JsonTypeInfo.Id.SIMPLE_NAME,
        property = "kind")
public sealed interface KeyExpr {

    /** {@code $binary_remote_addr}, {@code $remote_addr} (or {@code $realip_remote_addr}). */
    record Address(String variable) implements KeyExpr {
    }

    /** {@code $http_NAME}: a request header. */
    record Header(String variable, String header) implements KeyExpr {
    }

    /** {@code $cookie_NAME}. */
    record Cookie(String variable, String cookie) implements KeyExpr {
    }

    /** {@code $arg_NAME}: a query argument. */
    record Arg(String variable, String arg) implements KeyExpr {
    }

    /** Text with no variable: every request has the same key (one bucket for all), or none when empty. */
    record Literal(String text) implements KeyExpr {
    }

    /** Several parts one after the other, e.g. {@code $binary_remote_addr$uri}. */
    record Concat(List<KeyExpr> parts) implements KeyExpr {
        public Concat {
            parts = List.copyOf(parts);
        }
    }

    /**
     * A {@code map} (or {@code geo}, whose source is the address unless it names another) from a
     * source to values.
     *
     * @param variable  the variable it defines, e.g. {@code $limit_key}
     * @param source    what it maps
     * @param entries   each match (as written: a value, a ~regex, a CIDR) with the key it gives
     * @param otherwise the {@code default} value (empty when not given, as in nginx)
     * @param where     file:line of the map or geo
     * @param geo       a geo block: matches are networks
     */
    record Mapped(String variable, KeyExpr source, List<Entry> entries, KeyExpr otherwise, String where, boolean geo)
            implements KeyExpr {
        public Mapped {
            entries = List.copyOf(entries);
        }
    }

    /** One line of a map or geo. */
    record Entry(String match, KeyExpr value) {
    }

    /** {@code $server_name}: the server's first name, the same for every request of it. */
    record PerServer(String variable) implements KeyExpr {
    }

    /** A variable the model cannot evaluate (its value comes from code, the upstream, the URI...). */
    record Unknown(String variable) implements KeyExpr {
    }

    /** Whether the model can tell, for any request, which key it has. */
    default boolean evaluable() {
        if (this instanceof Unknown) {
            return false;
        }
        if (this instanceof Concat c) {
            return c.parts().stream().allMatch(KeyExpr::evaluable);
        }
        if (this instanceof Mapped m) {
            return m.source().evaluable() && m.otherwise().evaluable()
                    && m.entries().stream().allMatch(e -> e.value().evaluable());
        }
        return true;
    }

    /** The variables it cannot evaluate, e.g. {@code $request_uri}. */
    default List<String> unknowns() {
        List<String> found = new ArrayList<>();
        if (this instanceof Unknown u) {
            found.add(u.variable());
        } else if (this instanceof Concat c) {
            c.parts().forEach(p -> found.addAll(p.unknowns()));
        } else if (this instanceof Mapped m) {
            found.addAll(m.source().unknowns());
            found.addAll(m.otherwise().unknowns());
            m.entries().forEach(e -> found.addAll(e.value().unknowns()));
        }
        return found.stream().distinct().toList();
    }

    /** Whether which key a request has depends on the address it came from (so a proxy in front changes it). */
    default boolean dependsOnAddress() {
        if (this instanceof Address) {
            return true;
        }
        if (this instanceof Concat c) {
            return c.parts().stream().anyMatch(KeyExpr::dependsOnAddress);
        }
        if (this instanceof Mapped m) {
            return m.source().dependsOnAddress() || m.otherwise().dependsOnAddress()
                    || m.entries().stream().anyMatch(e -> e.value().dependsOnAddress());
        }
        return false;
    }

    /**
     * Whether a client chooses its own key: a header, cookie or argument that is the key itself (not
     * only mapped from), so that each new value it sends is a fresh, unlimited state.
     */
    default boolean chosenByClient() {
        if (this instanceof Header || this instanceof Cookie || this instanceof Arg) {
            return true;
        }
        if (this instanceof Concat c) {
            return c.parts().stream().anyMatch(KeyExpr::chosenByClient);
        }
        if (this instanceof Mapped m) {
            return m.otherwise().chosenByClient() || m.entries().stream().anyMatch(e -> e.value().chosenByClient());
        }
        return false;
    }

    /** Whether every request has the same non-empty key: one bucket for all clients together. */
    default boolean shared() {
        if (this instanceof Literal l) {
            return !l.text().isEmpty();
        }
        if (this instanceof PerServer) {
            return true;
        }
        return this instanceof Concat c && c.parts().stream().allMatch(p -> p instanceof Literal);
    }

    /** In words, e.g. "the client's address ($binary_remote_addr)". */
    default String words() {
        if (this instanceof Address a) {
            return "the client's address (" + a.variable() + ")";
        }
        if (this instanceof Header h) {
            return "the " + h.header() + " header (" + h.variable() + ")";
        }
        if (this instanceof Cookie c) {
            return "the " + c.cookie() + " cookie (" + c.variable() + ")";
        }
        if (this instanceof Arg a) {
            return "the " + a.arg() + " argument (" + a.variable() + ")";
        }
        if (this instanceof Literal l) {
            return l.text().isEmpty() ? "nothing (an empty key: never counted)"
                    : "the constant '" + l.text() + "' (one bucket for every client)";
        }
        if (this instanceof PerServer p) {
            return "the server's name (" + p.variable() + "), one bucket for all the server's clients";
        }
        if (this instanceof Concat c) {
            return String.join(" + ", c.parts().stream().map(KeyExpr::words).toList());
        }
        if (this instanceof Mapped m) {
            return m.variable() + ", a " + (m.geo() ? "geo" : "map") + " of " + m.source().words() + " (" + m.where() + ")";
        }
        return ((Unknown) this).variable();
    }

    /**
     * The requests for which {@code m}'s source is {@code match}, said of the source's own source
     * when the source is itself a map or geo giving that value (a geo of networks to 0 or 1, mapped
     * to a key): "the client's address in 10.0.0.0/8" rather than "$limited is 0".
     */
    private static List<String> matching(Mapped m, String match) {
        if (m.source() instanceof Mapped inner && !match.startsWith("~")) {
            List<String> out = new ArrayList<>();
            for (Entry e : inner.entries()) {
                if (e.value() instanceof Literal l && l.text().equals(match)) {
                    out.add(inner.source().words() + (inner.geo() ? " in " : " is ") + e.match());
                }
            }
            if (inner.otherwise() instanceof Literal l && l.text().equals(match)) {
                out.add("any other value of " + inner.source().words() + " (the default of " + inner.variable() + ")");
            }
            if (!out.isEmpty()) {
                return out;
            }
        }
        return List.of(m.source().words() + (m.geo() ? " in " : " is ") + (match.isEmpty() ? "empty" : match));
    }

    /** For a map or geo: the matches whose value is empty, i.e. the requests no limit of this key counts. */
    default List<String> exemptions() {
        List<String> out = new ArrayList<>();
        if (this instanceof Mapped m) {
            for (Entry e : m.entries()) {
                if (e.value() instanceof Literal l && l.text().isEmpty()) {
                    out.addAll(matching(m, e.match()));
                }
            }
            if (m.otherwise() instanceof Literal l && l.text().isEmpty()) {
                out.add("every request no other line of " + m.variable() + " matches (its default is empty)");
            }
        }
        return out;
    }
}
