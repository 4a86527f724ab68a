package dev.ratecache.suite.reproduce;

import dev.ratecache.suite.matrix.Metric;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One published figure: as its write-up printed it (quoted, never rounded or reworded) and as a
 * number in the unit of the metric it stands beside.
 *
 * @param metric  the suite's metric it compares with
 * @param printed the figure exactly as published, e.g. "65.27ms", "124366.73", "about 70K"
 * @param value   the same in the metric's unit (milliseconds for latency)
 */
public record PublishedFigure(Metric metric, String printed, double value) {
    /** A number, maybe with thousands' commas or a K, then maybe a unit of time or a percent sign. */
    /** A duration in minutes and seconds, as bombardier's users print one: "2m24s". */
    private static final Pattern MINUTES = Pattern.compile("(\\d+)m(\\d+(?:\\.\\d+)?)s");
    private static final Pattern NUMBER = Pattern.compile("(\\d[\\d,]*(?:\\.\\d+)?)\\s*(K|k)?\\s*(us|µs|ms|s|%)?");

    /**
     * The figure {@code printed} for {@code metric}: its first number, read as the write-up meant it
     * ("12.51k" is 12,510; "354.85us" is 0.35485 ms; "2m24s" is 144 s); a time without a unit is in
     * the metric's (milliseconds for latency, seconds for a duration).
     *
     * @throws IllegalArgumentException when it holds no number, or a time unit for a figure that is no time
     */
    public static PublishedFigure of(Metric metric, String printed) {
        Matcher minutes = MINUTES.matcher(printed);
        boolean time = metric.unit().equals("ms") || metric.unit().equals("s");
        if (time && minutes.find()) {
            double seconds = 60 * Double.parseDouble(minutes.group(1)) + Double.parseDouble(minutes.group(2));
            return new PublishedFigure(metric, printed, metric.unit().equals("s") ? seconds : 1000 * seconds);
        }
        Matcher m = NUMBER.matcher(printed);
        if (!m.find()) {
            throw new IllegalArgumentException("no number in the published figure '" + printed + "'");
        }
        double value = Double.parseDouble(m.group(1).replace(",", "")) * (m.group(2) != null ? 1000 : 1);
        String unit = m.group(3);
        if (unit != null && !unit.equals("%") && !time) {
            throw new IllegalArgumentException("'" + printed + "' is a time, and " + metric.id() + " is no time");
        }
        if (time && unit != null) {
            value *= switch (unit) {
                case "us", "µs" -> 0.001;
                case "s" -> 1000;
                default -> 1;
            };
            // The value is in milliseconds now: in seconds for a metric counted in seconds.
            value /= metric.unit().equals("s") ? 1000 : 1;
        }
        return new PublishedFigure(metric, printed, value);
    }

    /** A figure the suite holds as a number (the reference experiment's, in {@code Plan}), printed as it was. */
    public static PublishedFigure of(Metric metric, double value) {
        return new PublishedFigure(metric, new java.math.BigDecimal(String.valueOf(value)).stripTrailingZeros().toPlainString(),
                value);
    }

    /** The column's heading for this metric in a published table. */
    static String heading(Metric metric) {
        return switch (metric) {
            case THROUGHPUT -> "req/s";
            case SAMPLES -> "requests";
            case REJECTED_PCT -> "rejected %";
            case MEAN_MS -> "mean ms";
            case MIN_MS -> "min ms";
            case MAX_MS -> "max ms";
            case WALL_S -> "duration s";
            case CPU_FRONT_PCT -> "front CPU %";
            case CPU_BACK_PCT -> "back CPU %";
            case CPU_ORIGIN_PCT -> "origin CPU %";
            case CPU_POSTGRES_PCT -> "PostgreSQL CPU %";
            default -> metric.id() + " (" + metric.unit() + ")";
        };
    }

    /** Ours, as the column shows it: rates and latencies with two decimals, as wrk prints them; counts whole. */
    static String format(Metric metric, Double value) {
        if (value == null) {
            return "n/a";
        }
        return switch (metric) {
            case SAMPLES -> String.format(Locale.ROOT, "%.0f", value);
            case REJECTED_PCT, MIN_MS, MAX_MS, WALL_S, CPU_FRONT_PCT, CPU_BACK_PCT, CPU_ORIGIN_PCT, CPU_POSTGRES_PCT ->
                    String.format(Locale.ROOT, "%.1f", value);
            default -> String.format(Locale.ROOT, "%.2f", value);
        };
    }
}
