package dev.ratecache.suite.explain;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Parsed configs for the unit tests, written as crossplane would give them: a directive is its
 * name and arguments separated by single spaces (an argument of '' is empty), a block its head and
 * its directives. Line numbers count up in the order the test writes them; the file is t.conf.
 */
final class Conf {
    private Conf() {}

    private static int line;

    /** A directive ending in ';'. */
    static Directive d(String text) {
        return directive(text, null);
    }

    /** A block: {@code head { children }}. */
    static Directive b(String head, Directive... children) {
        return directive(head, Arrays.asList(children));
    }

    /** The whole config: {@code events {} http { children }}. */
    static List<Directive> http(Directive... children) {
        return List.of(directive("events", List.of()), b("http", children));
    }

    private static Directive directive(String text, List<Directive> block) {
        List<String> words = new ArrayList<>(Arrays.asList(text.split(" ")));
        String name = words.remove(0);
        name = name.equals("''") ? "" : name;
        List<String> args = words.stream().map(w -> w.equals("''") ? "" : w).toList();
        return new Directive(name, args, "t.conf", ++line, block);
    }

    /** The spec of {@code tree}. */
    static ConfigSpec spec(List<Directive> tree) {
        return Extractor.extract(tree);
    }

    /** The only place of the only server whose location is {@code location}. */
    static ConfigSpec.Place place(ConfigSpec spec, String location) {
        return spec.servers().stream().flatMap(s -> s.places().stream()).filter(p -> p.location().equals(location))
                .findFirst().orElseThrow(() -> new AssertionError("no location " + location));
    }
}
