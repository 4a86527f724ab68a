package dev.ratecache.suite.reproduce;

import dev.ratecache.suite.matrix.Cell;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The experiments `reproduce` reruns, in the order of their seeds, and how its NAME picks them. */
public final class Reproductions {
    /** Every experiment reproduced so far. */
    public static final List<Experiment> ALL = List.of(new HaproxyDatabaseCache(), new RedisVsNginx(), new RedisBalancer(),
            new FastOrigin(), new ReferenceRun());

    private Reproductions() {}

    /**
     * The experiment {@code name} names: its name ("fast-origin") or its seed's number ("003" or "3").
     *
     * @throws IllegalArgumentException one line naming every accepted name
     */
    public static Experiment named(String name) {
        String given = name.trim();
        for (Experiment e : ALL) {
            if (e.name().equalsIgnoreCase(given) || given.matches("\\d{1,3}")
                    && Integer.parseInt(given) == Integer.parseInt(e.seed())) {
                return e;
            }
        }
        throw new IllegalArgumentException("'" + name + "' is not an experiment: use " + accepted()
                + ", or no NAME for all of them");
    }

    /** "haproxy-cache (000), redis-vs-nginx (001), redis-balancer (002), fast-origin (003) or reference (004)". */
    public static String accepted() {
        List<String> names = ALL.stream().map(e -> e.name() + " (" + e.seed() + ")").toList();
        return names.size() == 1 ? names.get(0)
                : String.join(", ", names.subList(0, names.size() - 1)) + " or " + names.get(names.size() - 1);
    }

    /** Every cell of {@code experiments}, in their order. */
    public static List<Cell> cells(List<Experiment> experiments) {
        List<Cell> cells = new ArrayList<>();
        experiments.forEach(e -> cells.addAll(e.cells()));
        return cells;
    }

    /**
     * What the origin needs for all of {@code experiments}: each one's arguments, once. One origin
     * serves the whole run, so two experiments may not set one property differently.
     *
     * @throws IllegalStateException naming the property two experiments disagree on
     */
    public static List<String> originArgs(List<Experiment> experiments) {
        Map<String, String> byProperty = new LinkedHashMap<>();
        for (Experiment e : experiments) {
            for (String arg : e.originArgs()) {
                String property = arg.substring(0, arg.contains("=") ? arg.indexOf('=') : arg.length());
                String before = byProperty.putIfAbsent(property, arg);
                if (before != null && !before.equals(arg)) {
                    throw new IllegalStateException("the origin serves every experiment of the run, and two set "
                            + property + " differently: " + before + ", " + arg);
                }
            }
        }
        return List.copyOf(byProperty.values());
    }
}
