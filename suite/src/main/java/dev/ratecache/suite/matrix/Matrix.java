package dev.ratecache.suite.matrix;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The sets of cells run-tests.sh can run. */
public final class Matrix {
    private Matrix() {}

    public static final List<String> KINDS = List.of("default", "full");

    /**
     * The reference experiment: the stress plan with both rate limits on and each caching
     * combination, plus straight to the app server; the load plan with each caching combination.
     * Each of the suite's plans also gets a library row: the same traffic sent by the suite's
     * client library, beside JMeter's client-cache row.
     */
    public static List<Cell> reference(List<String> plans) {
        List<Cell> cells = new ArrayList<>();
        for (String plan : plans) {
            cells.add(new Cell(plan + "/no-caching", plan, false, true, true, false, false));
            cells.add(new Cell(plan + "/server-cache", plan, false, true, true, true, false));
            cells.add(new Cell(plan + "/client-cache", plan, false, true, true, false, true));
            cells.add(new Cell(plan + "/both", plan, false, true, true, true, true));
            if (plan.equals("stress")) {
                cells.add(new Cell(plan + "/direct", plan, true, false, false, false, false));
            }
            library(plan).ifPresent(cells::add);
        }
        return cells;
    }

    /** The library row for one of the suite's plans (the driver knows their shape, not a user's plan's). */
    static java.util.Optional<Cell> library(String plan) {
        return plan.equals("stress") || plan.equals("load")
                ? java.util.Optional.of(new Cell(plan + "/library", plan, false, true, true, false, true, true))
                : java.util.Optional.empty();
    }

    /** Every combination of front limit, back limit, server cache and client cache, per plan, plus direct. */
    public static List<Cell> full(List<String> plans) {
        List<Cell> cells = new ArrayList<>();
        for (String plan : plans) {
            for (boolean front : new boolean[] {true, false}) {
                for (boolean back : new boolean[] {true, false}) {
                    for (boolean server : new boolean[] {false, true}) {
                        for (boolean client : new boolean[] {false, true}) {
                            String name = plan + "/front-" + onOff(front) + ".back-" + onOff(back)
                                    + ".server-" + onOff(server) + ".client-" + onOff(client);
                            cells.add(new Cell(name, plan, false, front, back, server, client));
                        }
                    }
                }
            }
            cells.add(new Cell(plan + "/direct", plan, true, false, false, false, false));
            library(plan).ifPresent(cells::add);
        }
        return cells;
    }

    public static List<Cell> of(String kind, List<String> plans) {
        return switch (kind) {
            case "default" -> reference(plans);
            case "full" -> full(plans);
            default -> throw new IllegalArgumentException("--matrix must be one of " + KINDS + " (got '" + kind + "')");
        };
    }

    /**
     * The cells named in {@code only}, in matrix order; throws naming the unknown ones and listing
     * the valid choices.
     */
    public static List<Cell> select(List<Cell> cells, List<String> only) {
        if (only.isEmpty()) {
            return cells;
        }
        Map<String, Cell> byName = new LinkedHashMap<>();
        cells.forEach(c -> byName.put(c.name(), c));
        List<String> unknown = only.stream().filter(n -> !byName.containsKey(n)).toList();
        if (!unknown.isEmpty()) {
            throw new IllegalArgumentException("--only names no such cell: " + String.join(", ", unknown)
                    + "; valid cells: " + String.join(", ", byName.keySet()));
        }
        return cells.stream().filter(c -> only.contains(c.name())).toList();
    }

    private static String onOff(boolean on) {
        return on ? "on" : "off";
    }
}
