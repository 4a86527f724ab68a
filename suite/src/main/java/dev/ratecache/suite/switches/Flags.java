package dev.ratecache.suite.switches;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * The command-line flags that give an object of picocli options its values, leaving out those
 * still at their default: read from the same annotations as the command line, so they can't
 * drift from it. A rendered config names them, so that it can be rendered again.
 */
public final class Flags {
    private static final String SHELL_SAFE = "[A-Za-z0-9._:/=,@%+-]+";

    private Flags() {}

    /** {@code options}' flags, one array element per shell word, where they differ from {@code defaults}'. */
    public static List<String> differing(Object options, Object defaults) {
        List<OptionSpec> mine = CommandSpec.forAnnotatedObject(options).options();
        List<OptionSpec> theirs = CommandSpec.forAnnotatedObject(defaults).options();
        List<String> flags = new ArrayList<>();
        for (int i = 0; i < mine.size(); i++) {
            OptionSpec option = mine.get(i);
            Object value = option.getValue();
            if (Objects.equals(value, theirs.get(i).getValue())) {
                continue;
            }
            String name = option.longestName();
            if (value instanceof Boolean on) {
                if (on) {
                    flags.add(name);
                } else if (option.negatable()) {
                    flags.add("--no-" + name.substring(2));
                }
            } else if (value instanceof Map<?, ?> map) {
                map.forEach((k, v) -> {
                    flags.add(name);
                    flags.add(quoted(k + "=" + v));
                });
            } else if (value instanceof Collection<?> items && !option.splitRegex().isEmpty()) {
                flags.add(name);
                flags.add(quoted(String.join(",", items.stream().map(String::valueOf).toList())));
            } else if (value instanceof Collection<?> items) {
                for (Object item : items) {
                    flags.add(name);
                    flags.add(quoted(String.valueOf(item)));
                }
            } else {
                flags.add(name);
                flags.add(quoted(String.valueOf(value)));
            }
        }
        return flags;
    }

    /**
     * Sets every option of {@code to} (picocli options, of the same class as {@code from}) to
     * {@code from}'s value: a list or map as a copy of its own, so that neither sees the other's changes.
     */
    public static void copy(Object from, Object to) {
        List<OptionSpec> mine = CommandSpec.forAnnotatedObject(from).options();
        List<OptionSpec> theirs = CommandSpec.forAnnotatedObject(to).options();
        for (int i = 0; i < mine.size(); i++) {
            Object value = mine.get(i).getValue();
            if (value instanceof List<?> list) {
                value = new ArrayList<>(list);
            } else if (value instanceof Map<?, ?> map) {
                value = new java.util.LinkedHashMap<>(map);
            }
            theirs.get(i).setValue(value);
        }
    }

    private static String quoted(String word) {
        return word.matches(SHELL_SAFE) ? word : "'" + word.replace("'", "'\\''") + "'";
    }
}
