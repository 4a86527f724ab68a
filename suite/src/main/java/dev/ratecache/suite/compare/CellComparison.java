package dev.ratecache.suite.compare;

import java.util.List;

/**
 * One cell, A against B.
 *
 * @param presence    whether both runs have it, or only one (added in B, removed from A)
 * @param note        why it is not compared metric by metric (a failed side), else empty
 * @param differences what differs in the cell's switches and description, one clause each ("front limit 100 -> 90")
 * @param warnings    what else differed between the runs that moves the figures (a busier machine)
 * @param words       what changed, in words, each beside the model's prediction of it ({@link ChangeWords})
 */
public record CellComparison(String name, Presence presence, String note, List<String> differences,
        List<MetricComparison> metrics, List<String> warnings, List<String> words) {

    public CellComparison(String name, Presence presence, String note, List<String> differences,
            List<MetricComparison> metrics, List<String> warnings) {
        this(name, presence, note, differences, metrics, warnings, List.of());
    }

    public CellComparison(String name, Presence presence, String note, List<String> differences,
            List<MetricComparison> metrics) {
        this(name, presence, note, differences, metrics, List.of());
    }

    public enum Presence {
        BOTH("in both"),
        ADDED("added (only in B)"),
        REMOVED("removed (only in A)");

        private final String words;

        Presence(String words) {
            this.words = words;
        }

        public String words() {
            return words;
        }
    }
}
