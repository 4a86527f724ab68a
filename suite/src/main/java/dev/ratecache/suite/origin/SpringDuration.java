package dev.ratecache.suite.origin;

import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Durations as Spring Boot binds the origin's settings: a whole number with an optional unit (ns,
 * us, ms, s, m, h, d), or ISO-8601 ({@code PT2S}). A number without a unit is in the property's own
 * unit, which the origin declares per property ({@code @DurationUnit}), so the caller names it.
 */
public final class SpringDuration {
    private static final Pattern SIMPLE = Pattern.compile("([+-]?\\d+)([a-zA-Z]{0,2})");
    private static final Map<String, ChronoUnit> UNITS = Map.of("ns", ChronoUnit.NANOS, "us", ChronoUnit.MICROS,
            "ms", ChronoUnit.MILLIS, "s", ChronoUnit.SECONDS, "m", ChronoUnit.MINUTES, "h", ChronoUnit.HOURS,
            "d", ChronoUnit.DAYS);

    private SpringDuration() {}

    /** {@code text} as a duration; {@code unitIfNone} for a bare number. */
    public static Duration parse(String text, ChronoUnit unitIfNone) {
        String t = text.trim();
        Matcher m = SIMPLE.matcher(t);
        if (m.matches()) {
            ChronoUnit unit = m.group(2).isEmpty() ? unitIfNone : UNITS.get(m.group(2).toLowerCase(Locale.ROOT));
            if (unit == null) {
                throw new IllegalArgumentException("'" + text + "' has an unknown unit: use one of ns, us, ms, s, m, h, d");
            }
            return Duration.of(Long.parseLong(m.group(1)), unit);
        }
        if (t.matches("[+-]?[pP].*")) {
            return Duration.parse(t);
        }
        throw new IllegalArgumentException("'" + text + "' is not a duration such as 100ms, 3s or PT2S");
    }

    /**
     * {@code text} as a duration in whole milliseconds from {@code least} to {@code most}; empty when
     * it is none, or finer, or out of that range (a flag's value, refused in one line by its caller).
     */
    public static java.util.Optional<Duration> parseWithin(String text, ChronoUnit unitIfNone, Duration least,
            Duration most) {
        try {
            Duration d = parse(text, unitIfNone);
            boolean wholeMillis = d.toNanosPart() % 1_000_000 == 0;
            return wholeMillis && d.compareTo(least) >= 0 && d.compareTo(most) <= 0 ? java.util.Optional.of(d)
                    : java.util.Optional.empty();
        } catch (RuntimeException e) {
            return java.util.Optional.empty();
        }
    }

    /** {@code d} as the origin's arguments write it: whole seconds as {@code 3s}, else milliseconds ({@code 10ms}). */
    public static String format(Duration d) {
        if (d.toNanosPart() % 1_000_000 != 0) {
            throw new IllegalArgumentException(d + " is finer than a millisecond");
        }
        return d.toMillis() % 1000 == 0 ? d.toSeconds() + "s" : d.toMillis() + "ms";
    }
}
