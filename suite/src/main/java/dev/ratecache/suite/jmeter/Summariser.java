package dev.ratecache.suite.jmeter;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What JMeter's summariser (jmeter/suite.properties: "summary", every 5 s) has said so far of a
 * run: its lines are the only live count JMeter gives, for its JTL is written in buffered blocks.
 * Each "summary +" line counts the samples since the one before, so their sum is the run's so far;
 * the "summary =" lines repeat that sum and are left out.
 */
public final class Summariser {
    // e.g. "summary +    199 in 00:00:02 =  102.2/s Avg:   409 Min:    59 Max:   689 Err:     3 (1.51%) Active: 0 ..."
    // The rate is "******" for an interval too short to have one, and has a decimal comma in some locales.
    private static final Pattern DELTA = Pattern.compile(
            "^summary \\+\\s+(\\d+) in [\\d:]+ =\\s+(\\S+)/s .*?\\bErr:\\s+(\\d+)\\b");

    private long samples;
    private long errors;
    private Double rate;

    /** Reads one line of JMeter's output; other lines than the summariser's are ignored. */
    public void accept(String line) {
        Matcher m = DELTA.matcher(line);
        if (!m.find()) {
            return;
        }
        samples += Long.parseLong(m.group(1));
        errors += Long.parseLong(m.group(3));
        rate = parseRate(m.group(2)).orElse(rate);
    }

    /** Samples so far (errors among them, 429s included, for JMeter counts every rejection as one). */
    public long samples() {
        return samples;
    }

    public long errors() {
        return errors;
    }

    /** Samples per second over the last interval; empty before the first. */
    public Optional<Double> rate() {
        return Optional.ofNullable(rate);
    }

    private static Optional<Double> parseRate(String text) {
        try {
            return Optional.of(Double.parseDouble(text.replace(',', '.')));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }
}
