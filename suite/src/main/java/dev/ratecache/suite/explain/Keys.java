package dev.ratecache.suite.explain;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Reads a key as nginx compiles a complex value: text, {@code $name} or {@code ${name}}, a name
 * being letters, digits and '_'. Each variable becomes what the model knows of it, following the
 * config's {@code map} and {@code geo} blocks (by the variable they define).
 */
final class Keys {
    private final Map<String, Directive> definitions;

    /** @param definitions the http level's map and geo blocks, by the variable each defines ("$limit_key") */
    Keys(Map<String, Directive> definitions) {
        this.definitions = definitions;
    }

    KeyExpr read(String value) {
        return read(value, new HashSet<>());
    }

    private KeyExpr read(String value, Set<String> seen) {
        List<KeyExpr> parts = new ArrayList<>();
        StringBuilder text = new StringBuilder();
        int i = 0;
        while (i < value.length()) {
            char c = value.charAt(i);
            if (c != '$' || i + 1 >= value.length()) {
                text.append(c);
                i++;
                continue;
            }
            int start = i + 1;
            int end;
            String name;
            if (value.charAt(start) == '{') {
                end = value.indexOf('}', start);
                if (end < 0) {
                    text.append(value.substring(i));
                    break;
                }
                name = value.substring(start + 1, end);
                end++;
            } else {
                end = start;
                while (end < value.length() && (Character.isLetterOrDigit(value.charAt(end)) || value.charAt(end) == '_')) {
                    end++;
                }
                name = value.substring(start, end);
            }
            if (name.isEmpty()) {
                text.append(c);
                i++;
                continue;
            }
            if (!text.isEmpty()) {
                parts.add(new KeyExpr.Literal(text.toString()));
                text.setLength(0);
            }
            parts.add(variable(name, seen));
            i = end;
        }
        if (!text.isEmpty() || parts.isEmpty()) {
            parts.add(new KeyExpr.Literal(text.toString()));
        }
        return parts.size() == 1 ? parts.get(0) : new KeyExpr.Concat(parts);
    }

    private KeyExpr variable(String name, Set<String> seen) {
        String variable = "$" + name;
        String lower = name.toLowerCase(Locale.ROOT);
        if (lower.equals("binary_remote_addr") || lower.equals("remote_addr") || lower.equals("realip_remote_addr")) {
            return new KeyExpr.Address(variable);
        }
        if (lower.equals("server_name")) {
            return new KeyExpr.PerServer(variable);
        }
        Directive defined = definitions.get(variable);
        if (defined != null && seen.add(variable)) {
            KeyExpr mapped = defined.name().equals("geo") ? geo(defined, variable, seen) : map(defined, variable, seen);
            seen.remove(variable);
            return mapped;
        }
        if (lower.startsWith("http_") && lower.length() > 5) {
            return new KeyExpr.Header(variable, headerName(lower.substring(5)));
        }
        if (lower.startsWith("cookie_") && lower.length() > 7) {
            return new KeyExpr.Cookie(variable, name.substring(7));
        }
        if (lower.startsWith("arg_") && lower.length() > 4) {
            return new KeyExpr.Arg(variable, name.substring(4));
        }
        return new KeyExpr.Unknown(variable);
    }

    /** {@code x_api_key} as the header a client sends: X-Api-Key. */
    static String headerName(String variablePart) {
        StringBuilder s = new StringBuilder();
        for (String word : variablePart.split("_", -1)) {
            if (!s.isEmpty()) {
                s.append('-');
            }
            if (!word.isEmpty()) {
                s.append(Character.toUpperCase(word.charAt(0))).append(word.substring(1));
            }
        }
        return s.toString();
    }

    /** map SOURCE $var { [hostnames; volatile;] default V; MATCH V; ... } */
    private KeyExpr map(Directive map, String variable, Set<String> seen) {
        KeyExpr source = read(map.arg(0), seen);
        List<KeyExpr.Entry> entries = new ArrayList<>();
        KeyExpr otherwise = new KeyExpr.Literal("");
        for (Directive e : map.children()) {
            switch (e.name()) {
                case "hostnames", "volatile" -> { }
                case "default" -> otherwise = read(e.arg(0), seen);
                default -> entries.add(new KeyExpr.Entry(e.name(), read(e.arg(0), seen)));
            }
        }
        return new KeyExpr.Mapped(variable, source, entries, otherwise, map.where(), false);
    }

    /** geo [$source] $var { default V; proxy ...; ranges; delete NET; NET V; ... } */
    private KeyExpr geo(Directive geo, String variable, Set<String> seen) {
        KeyExpr source = geo.args().size() > 1 ? read(geo.arg(0), seen) : new KeyExpr.Address("$remote_addr");
        List<KeyExpr.Entry> entries = new ArrayList<>();
        KeyExpr otherwise = new KeyExpr.Literal("");
        for (Directive e : geo.children()) {
            switch (e.name()) {
                case "ranges", "proxy", "proxy_recursive", "delete" -> { }
                case "default" -> otherwise = read(e.arg(0), seen);
                default -> entries.add(new KeyExpr.Entry(e.name(), read(e.arg(0), seen)));
            }
        }
        return new KeyExpr.Mapped(variable, source, entries, otherwise, geo.where(), true);
    }
}
