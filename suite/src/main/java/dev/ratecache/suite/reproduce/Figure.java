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
public record Figure(Metric metric, String printed, double value) {
    /** A number, maybe with thousands' commas or a K, then maybe a unit of time or a percent sign. */
    private static final Pattern NUMBER = Pattern.compile("(\\d[\\d,]*(?:\\.\\d+)?)\\s*(K|k)?\\s*(us|µs|ms|s|%)?");

    /**
     * The figure {@code printed} for {@code metric}: its first number, read as the write-up meant it
     * ("12.51k" is 12,510; "354.85us" is 0.35485 ms); a time without a unit is in milliseconds.
     *
     * @throws IllegalArgumentException when it holds no number, or a time unit for a figure that is no time
     */
    public static Figure of(Metric metric, String printed) {
        Matcher m = NUMBER.matcher(printed);
        if (!m.find()) {
            throw new IllegalArgumentException("no number in the published figure '" + printed + "'");
        }
        double value = Double.parseDouble(m.group(1).replace(",", "")) * (m.group(2) != null ? 1000 : 1);
        String unit = m.group(3);
        boolean time = metric.unit().equals("ms");
        if (unit != null && !unit.equals("%") && !time) {
            throw new IllegalArgumentException("'" + printed + "' is a time, and " + metric.id() + " is no time");
        }
        if (time && unit != null) {
            value *= switch (unit) {
                case "us", "µs" -> 0.001;
                case "s" -> 1000;
                default -> 1;
            };
        }
        return new Figure(metric, printed, value);
    }

    /** A figure the suite holds as a number (the reference experiment's, in {@code Plan}), printed as it was. */
    public static Figure of(Metric metric, double value) {
        return new Figure(metric, new java.math.BigDecimal(String.valueOf(value)).stripTrailingZeros().toPlainString(),
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
            case REJECTED_PCT, MIN_MS, MAX_MS -> String.format(Locale.ROOT, "%.1f", value);
            default -> String.format(Locale.ROOT, "%.2f", value);
        };
    }
}
