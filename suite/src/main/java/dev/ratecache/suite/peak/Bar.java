package dev.ratecache.suite.peak;

import java.util.Locale;

/**
 * The share of its bare form's rate a full config must keep ({@code peak --edge}: 0.95;
 * {@code peak --breakdown}: 0.90), read from the median of each round's own ratio. peak reads it and
 * does not enforce it. A run whose rounds fall on both sides of the bar cannot tell, whatever its
 * median: on a 2-core machine runs of three rounds of the same nginx front gave 0.77, 0.93 and 0.96,
 * and eight rounds 0.73 (docs/capacity.md).
 */
public record Bar(double share) {

    /** Whether the median of the rounds' ratios keeps the bar. */
    public boolean holds(Spread ratios) {
        return ratios.median() >= share;
    }

    /** Whether the rounds' ratios lie on both sides of the bar. */
    public boolean undecided(Spread ratios) {
        return ratios.min() < share && ratios.max() >= share;
    }

    /**
     * The bar's line: "bar: WHO at 0.82 of AGAINST's HIT rate (median of 5 round(s), range 0.76-1.01;
     * CPU per HIT 1.41 of CPU_AGAINST's): BELOW, the bar is 0.95"; and when the rounds cannot tell, a
     * second line that says so.
     */
    public String verdict(String who, String against, String cpuAgainst, String path, Spread ratios, double cpuRatio) {
        String line = String.format(Locale.ROOT, "bar: %s at %.2f of %s's %s rate (median of %d round(s), range %s;"
                        + " CPU per %s %.2f of %s's): %s, the bar is %.2f", who, ratios.median(), against, path,
                ratios.values().size(), ratios.range(), path.equals("HIT") ? "HIT" : "request", cpuRatio, cpuAgainst,
                holds(ratios) ? "PASS" : "BELOW", share);
        return undecided(ratios) ? line + System.lineSeparator() + String.format(Locale.ROOT, "the rounds' ratios (%s)"
                + " lie on both sides of %.2f: this run cannot tell; run more rounds (8 or more) on an idle machine",
                ratios.range(), share) : line;
    }
}
