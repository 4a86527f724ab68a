package dev.ratecache.suite.advise;

import dev.ratecache.suite.explain.Directive;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Which location of one server block answers a path, by nginx's own search
 * (ngx_http_core_find_location, nginx 1.22), level by level:
 * <ol>
 *   <li>an exact location ({@code = /path}) equal to the path ends the search;</li>
 *   <li>else the longest prefix location (plain or {@code ^~}) the path starts with is remembered,
 *       and its nested locations are searched the same way; a definitive match there ends it;</li>
 *   <li>unless that prefix is {@code ^~}, this level's regex locations ({@code ~} case-sensitive,
 *       {@code ~*} not) are tried in the order written; the first that matches (or one of its
 *       nested locations) ends the search;</li>
 *   <li>else the remembered prefix answers (the server itself when there is none).</li>
 * </ol>
 * nginx's regexes are PCRE; they are run here with java.util.regex, which reads the common syntax
 * alike. One Java cannot compile is named, and a path the search would test against it is not matched.
 */
public final class LocationMatch {
    /** One location of the search tree: its modifier, its text, and its nested locations. */
    private record Location(Directive directive, String modifier, String text, Pattern regex, String unreadable,
                            Level nested) {
    }

    /** The locations of one level, as nginx sorts them: static ones (exact and prefix) and regexes in order. */
    private record Level(List<Location> statics, List<Location> regexes) {
    }

    /**
     * The outcome for one path.
     *
     * @param location   the location directive that answers it; empty when the server block itself does
     * @param unreadable the regex location Java could not read, when the search had to test it: then
     *                   {@code location} says nothing
     */
    public record Match(Optional<Directive> location, String unreadable) {
        public boolean known() {
            return unreadable == null;
        }
    }

    private final Level top;
    private final Map<String, String> unreadable = new LinkedHashMap<>();

    private LocationMatch(Directive server) {
        this.top = level(server);
    }

    /** The search of {@code server}'s locations (a server directive as crossplane parsed it). */
    public static LocationMatch of(Directive server) {
        return new LocationMatch(server);
    }

    /** The regex locations Java cannot compile: file:line to why. */
    public Map<String, String> unreadable() {
        return Map.copyOf(unreadable);
    }

    private Level level(Directive parent) {
        List<Location> statics = new ArrayList<>();
        List<Location> regexes = new ArrayList<>();
        for (Directive d : parent.all("location")) {
            String[] split = modifierAndText(d.args());
            String modifier = split[0];
            String text = split[1];
            if (text.startsWith("@")) {
                continue; // named: reached only by try_files, error_page or a redirect, never by the search
            }
            if (modifier.equals("~") || modifier.equals("~*")) {
                Pattern p = null;
                String why = null;
                try {
                    p = Pattern.compile(text, modifier.equals("~*") ? Pattern.CASE_INSENSITIVE : 0);
                } catch (PatternSyntaxException e) {
                    why = "location " + modifier + " " + text + " (" + d.where() + "): a regex Java cannot read ("
                            + e.getDescription() + ")";
                    unreadable.put(d.where(), why);
                }
                regexes.add(new Location(d, modifier, text, p, why, level(d)));
            } else {
                statics.add(new Location(d, modifier, text, null, null, level(d)));
            }
        }
        return new Level(statics, regexes);
    }

    /** {@code location = /x}, {@code location =/x}, {@code location ~* \.php$}: the modifier apart. */
    static String[] modifierAndText(List<String> args) {
        if (args.size() >= 2) {
            return new String[] {args.get(0), args.get(1)};
        }
        String a = args.isEmpty() ? "" : args.get(0);
        for (String m : List.of("^~", "~*", "=", "~")) {
            if (a.startsWith(m) && a.length() > m.length()) {
                return new String[] {m, a.substring(m.length())};
            }
        }
        return new String[] {"", a};
    }

    /** The location that answers {@code uri} (as logged: path and query, percent-encoded). */
    public Match match(String uri) {
        Found f = find(top, normalised(uri));
        return new Match(Optional.ofNullable(f.location == null ? null : f.location.directive()), f.unreadable);
    }

    /** What one level's search found; {@code definitive}: nginx's NGX_OK, the levels above test no regex. */
    private record Found(Location location, boolean definitive, String unreadable) {
    }

    private Found find(Level level, String path) {
        Location prefix = null;
        for (Location l : level.statics()) {
            if (l.modifier().equals("=")) {
                if (path.equals(l.text())) {
                    return new Found(l, true, null);
                }
            } else if (path.startsWith(l.text()) && (prefix == null || l.text().length() > prefix.text().length())) {
                prefix = l;
            }
        }
        Location answer = prefix;
        if (prefix != null) {
            Found nested = find(prefix.nested(), path);
            if (nested.definitive() || nested.unreadable() != null) {
                return nested;
            }
            if (nested.location() != null) {
                answer = nested.location();
            }
            if (prefix.modifier().equals("^~")) {
                return new Found(answer, false, null);
            }
        }
        for (Location r : level.regexes()) {
            if (r.regex() == null) {
                return new Found(null, true, r.unreadable());
            }
            if (r.regex().matcher(path).find()) {
                Found nested = find(r.nested(), path);
                return nested.location() != null || nested.unreadable() != null ? new Found(nested.location(), true,
                        nested.unreadable()) : new Found(r, true, null);
            }
        }
        return new Found(answer, false, null);
    }

    /**
     * The path nginx searches with ({@code $uri}): the query cut off, %XX decoded, and runs of slashes
     * merged (merge_slashes on, nginx's default). Dot segments are left: a client that sends them is rare,
     * and nginx would refuse one that climbs above the root.
     */
    static String normalised(String uri) {
        int q = uri.indexOf('?');
        String path = q < 0 ? uri : uri.substring(0, q);
        if (path.indexOf('%') >= 0) {
            try {
                path = URLDecoder.decode(path.replace("+", "%2B"), StandardCharsets.UTF_8);
            } catch (IllegalArgumentException e) {
                // A malformed escape: nginx answers it 400 before any location; searched as logged.
            }
        }
        return path.replaceAll("/{2,}", "/");
    }
}
