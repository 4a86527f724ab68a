package dev.ratecache.suite.compare;

import java.util.Locale;

/**
 * One metric of one cell, A against B.
 *
 * @param a       A's figure (its median over repeats, from summary.json)
 * @param b       B's figure
 * @param low     the 95 % interval's low end of B - A, in the metric's unit; NaN when not measured
 * @param high    its high end
 * @param method  how the interval was measured ("bootstrap of 1000 samples' latencies", ...)
 * @param pValue  the Mann-Whitney U test's two-sided p of the latencies, NaN where not applied
 */
public record MetricComparison(CompareMetric metric, double a, double b, double low, double high, String method,
        double pValue, Verdict verdict) {

    /** B / A; NaN when A is 0. */
    public double ratio() {
        return a == 0 ? Double.NaN : b / a;
    }

    /** The change in per cent of A; NaN when A is 0 (a change from nothing has no per cent). */
    public double changePct() {
        return a == 0 ? Double.NaN : 100 * (b - a) / Math.abs(a);
    }

    /**
     * Whether it is worse by more than {@code pct} per cent of A and outside the noise; from 0 any
     * worse change judged outside the noise counts, as no per cent measures it.
     */
    public boolean regression(double pct) {
        return verdict == Verdict.WORSE && (a == 0 || Math.abs(changePct()) > pct);
    }

    /** The judgement from the interval of B - A: outside the noise only when it excludes 0 and passes the floor. */
    static Verdict judge(CompareMetric metric, double a, double b, double low, double high) {
        if (Double.isNaN(low) || Double.isNaN(high)) {
            return Verdict.UNJUDGED;
        }
        double diff = b - a;
        boolean outside = (low > 0 || high < 0) && Math.abs(diff) > metric.floor(a);
        if (!outside) {
            return Verdict.SAME;
        }
        boolean up = diff > 0;
        return up == (metric.better() == CompareMetric.Better.HIGHER) ? Verdict.BETTER : Verdict.WORSE;
    }

    /** A per cent as given, without a needless ".0": "10", "2.5". */
    public static String pct(double pct) {
        return java.math.BigDecimal.valueOf(pct).stripTrailingZeros().toPlainString();
    }

    /** "27.6", "0.0", "5285": figures as the report shows them, with no needless decimals. */
    static String figure(double v) {
        if (Double.isNaN(v)) {
            return "n/a";
        }
        if (Double.isInfinite(v)) {
            return v > 0 ? "inf" : "-inf";
        }
        double magnitude = Math.abs(v);
        return String.format(Locale.ROOT, magnitude >= 100 ? "%.0f" : magnitude >= 10 ? "%.1f" : "%.2f", v);
    }

    /** The change as text: "+3.1 %", or "+1.2" (in the unit) from a 0. */
    public String changeText() {
        if (a == 0) {
            return b == 0 ? "0" : (b > 0 ? "+" : "") + figure(b - a) + " " + metric.unit();
        }
        return String.format(Locale.ROOT, "%+.1f %%", changePct());
    }

    /** The interval of B - A as text, in per cent of A ("-2.0 % .. +4.1 %"), or in the unit from a 0. */
    public String intervalText() {
        if (Double.isNaN(low)) {
            return "n/a";
        }
        if (a == 0) {
            return figure(low) + " .. " + figure(high) + " " + metric.unit();
        }
        return String.format(Locale.ROOT, "%+.1f %% .. %+.1f %%", 100 * low / Math.abs(a), 100 * high / Math.abs(a));
    }
}
