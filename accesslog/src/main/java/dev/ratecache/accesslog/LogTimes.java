package dev.ratecache.accesslog;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.Optional;

/** The time spellings logs use, in one place so the log's lines and the user's --from/--to agree. */
final class LogTimes {
    /** nginx's {@code $time_local} and Apache's {@code %t}: month names are English whatever the locale. */
    static final DateTimeFormatter LOCAL = DateTimeFormatter.ofPattern("dd/MMM/yyyy:HH:mm:ss Z", Locale.ENGLISH);

    /** For messages: always with seconds, which {@code OffsetDateTime.toString()} leaves out when they are 0. */
    static final DateTimeFormatter ISO = DateTimeFormatter.ISO_OFFSET_DATE_TIME;

    /** Below this an epoch number is seconds (until the year 5138), above it milliseconds (after 1973). */
    private static final double EPOCH_MILLIS_ABOVE = 1e11;

    /** More seconds or milliseconds than any epoch time a log holds, and than a long's nanoseconds reach. */
    private static final BigDecimal LARGEST_EPOCH = BigDecimal.TEN.pow(19);

    /** A tenth of a nanosecond: less rounds to epoch 0 however it is scaled. */
    private static final BigDecimal TINY_EPOCH = BigDecimal.ONE.movePointLeft(10);

    private LogTimes() {}

    /** {@code 10/Oct/2000:13:55:36 -0700}. */
    static Optional<OffsetDateTime> local(String text) {
        try {
            return Optional.of(OffsetDateTime.parse(text, LOCAL));
        } catch (DateTimeParseException e) {
            return Optional.empty();
        }
    }

    /** ISO-8601 with an offset ({@code 2026-11-20T10:00:00+01:00}, {@code ...Z}), as nginx's {@code $time_iso8601}. */
    static Optional<OffsetDateTime> iso(String text) {
        try {
            return Optional.of(OffsetDateTime.parse(text));
        } catch (DateTimeParseException e) {
            return Optional.empty();
        }
    }

    /** Either of the spellings a person might copy out of a log or write by hand. */
    static Optional<OffsetDateTime> either(String text) {
        String t = text.strip();
        return iso(t).or(() -> local(t));
    }

    /**
     * Epoch seconds or milliseconds, told apart by size. An epoch carries no zone, so the time is
     * kept in UTC rather than in this machine's zone, which the log's writer may never have shared.
     */
    static Optional<OffsetDateTime> epoch(String number) {
        BigDecimal value;
        try {
            value = new BigDecimal(number.strip());
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
        // Past any time a long's nanoseconds hold; told before scaling, which for 1e999999999 would
        // build a number of a billion digits (and throw).
        if (value.signum() < 0 || value.compareTo(LARGEST_EPOCH) > 0) {
            return Optional.empty();
        }
        // Far below a nanosecond: epoch 0, as rounding makes it; told before scaling too, which for
        // 1e-199999999 divides by a power of ten of 200 million digits (a hang).
        if (value.compareTo(TINY_EPOCH) < 0) {
            value = BigDecimal.ZERO;
        }
        BigDecimal nanos = value.doubleValue() > EPOCH_MILLIS_ABOVE
                ? value.movePointRight(6) : value.movePointRight(9);
        try {
            long n = nanos.setScale(0, java.math.RoundingMode.HALF_UP).longValueExact();
            return Optional.of(Instant.ofEpochSecond(0, n).atOffset(ZoneOffset.UTC));
        } catch (ArithmeticException e) {
            return Optional.empty();
        }
    }
}
