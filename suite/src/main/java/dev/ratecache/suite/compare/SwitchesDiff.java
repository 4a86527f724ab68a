package dev.ratecache.suite.compare;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What differs between two descriptions of a stack, as the report words them ("front limit 100 r/s
 * burst 200 queue, back limit ..."): each clause is matched with the other side's by its first two
 * words, and a changed clause names only its changed words ("front limit 100 -> 90").
 */
final class SwitchesDiff {
    private SwitchesDiff() {}

    static List<String> of(String a, String b) {
        Map<String, String> ofA = clauses(a);
        Map<String, String> ofB = clauses(b);
        List<String> differences = new ArrayList<>();
        ofA.forEach((key, clause) -> {
            String other = ofB.get(key);
            if (other == null) {
                differences.add(clause + " -> (none)");
            } else if (!other.equals(clause)) {
                differences.add(changedWords(clause, other));
            }
        });
        ofB.forEach((key, clause) -> {
            if (!ofA.containsKey(key)) {
                differences.add("(none) -> " + clause);
            }
        });
        return differences;
    }

    private static Map<String, String> clauses(String text) {
        Map<String, String> clauses = new LinkedHashMap<>();
        // Commas inside brackets ("edge cache on (100m, Age native)") belong to their clause.
        int depth = 0;
        int start = 0;
        for (int i = 0; i <= text.length(); i++) {
            char c = i < text.length() ? text.charAt(i) : ',';
            depth += c == '(' ? 1 : c == ')' ? -1 : 0;
            if (c == ',' && depth <= 0) {
                String clause = text.substring(start, i).trim();
                if (!clause.isEmpty()) {
                    String[] words = clause.split("\\s+");
                    String key = words.length > 1 ? words[0] + " " + words[1] : words[0];
                    clauses.merge(key, clause, (x, y) -> x + ", " + y);
                }
                start = i + 1;
            }
        }
        return clauses;
    }

    /** "front limit 100 -> 90 r/s burst 200 -> 50 queue" shortened to the changed words and what they belong to. */
    private static String changedWords(String a, String b) {
        String[] x = a.split("\\s+");
        String[] y = b.split("\\s+");
        if (x.length != y.length) {
            return a + " -> " + b;
        }
        List<String> changes = new ArrayList<>();
        List<String[]> changed = new ArrayList<>();
        boolean firstNamed = false;
        for (int i = 0; i < x.length; i++) {
            if (!x[i].equals(y[i])) {
                String from = bare(x[i]);
                String to = bare(y[i]);
                // Your config's file, named again with a line ("at old.conf:8"), is one change, said once.
                if (changed.stream().anyMatch(c -> c[0].equals(from) && c[1].equals(to)
                        || from.startsWith(c[0] + ":") && to.startsWith(c[1] + ":"))) {
                    continue;
                }
                changed.add(new String[] {from, to});
                // The word before names a value past the clause's first two ("burst 200"); those name the first.
                String what = i >= 3 && x[i - 1].equals(y[i - 1]) ? bare(x[i - 1]) + " " : "";
                firstNamed |= changes.isEmpty() && !what.isEmpty();
                changes.add(what + from + " -> " + to);
            }
        }
        // "front burst 200 -> 50", not "front limit burst ...": the limit's own value did not change.
        String head = String.join(" ", Arrays.copyOfRange(x, 0, Math.min(firstNamed ? 1 : 2, x.length)));
        return head + " " + String.join(", ", changes);
    }

    /** A word without the brackets and commas of the clause around it: "(old.conf," is "old.conf". */
    private static String bare(String word) {
        return word.replaceAll("^[(\\[]+|[,;:)\\]]+$", "");
    }
}
