package dev.ratecache.accesslog;

import java.time.OffsetDateTime;
import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * Which of a log's requests to replay. Applied in this order: the time window, then the methods,
 * then {@code first}, so that {@code --first 1000} means a thousand requests that are really sent.
 *
 * <p>Only GET and HEAD by default: replaying a POST or DELETE against the suite's origin would
 * claim to repeat something that changed state, which it cannot, and those are what nginx's cache
 * passes through anyway. Other methods are counted, so the user sees what was left out.
 *
 * @param from the earliest request time kept (inclusive), if any
 * @param to the time requests must be before (exclusive, so consecutive windows do not overlap), if any
 * @param first at most this many requests, the earliest, if set
 * @param methods the request methods kept, upper case
 */
public record Selection(Optional<OffsetDateTime> from, Optional<OffsetDateTime> to, OptionalInt first,
        Set<String> methods) {
    public static final Set<String> DEFAULT_METHODS = Set.of("GET", "HEAD");

    public Selection {
        methods = Set.copyOf(methods.stream().map(m -> m.strip().toUpperCase(Locale.ROOT)).toList());
        if (methods.isEmpty()) {
            throw new IllegalArgumentException("no request methods to replay; name at least one, e.g. GET,HEAD");
        }
        if (first.isPresent() && first.getAsInt() < 1) {
            throw new IllegalArgumentException("--first " + first.getAsInt() + " keeps no request; use 1 or more");
        }
        if (from.isPresent() && to.isPresent() && !from.get().toInstant().isBefore(to.get().toInstant())) {
            throw new IllegalArgumentException("--from " + LogTimes.ISO.format(from.get()) + " is not before --to " + LogTimes.ISO.format(to.get()));
        }
    }

    /** Every GET and HEAD request of the log. */
    public static Selection defaults() {
        return new Selection(Optional.empty(), Optional.empty(), OptionalInt.empty(), DEFAULT_METHODS);
    }

    public Selection from(OffsetDateTime time) {
        return new Selection(Optional.of(time), to, first, methods);
    }

    public Selection to(OffsetDateTime time) {
        return new Selection(from, Optional.of(time), first, methods);
    }

    public Selection first(int requests) {
        return new Selection(from, to, OptionalInt.of(requests), methods);
    }

    public Selection methods(Set<String> kept) {
        return new Selection(from, to, first, kept);
    }

    /**
     * A {@code --from}/{@code --to} time: ISO-8601 with an offset ({@code 2026-11-20T10:00:00+01:00})
     * or as the log writes it ({@code 20/Nov/2026:10:00:00 +0100}), so a time can be copied from the
     * log. A time without an offset is refused: whose zone it meant is exactly what a log across
     * zones or a summer-time change gets wrong.
     *
     * @throws IllegalArgumentException with one line showing both accepted spellings
     */
    public static OffsetDateTime parseTime(String text) {
        return LogTimes.either(text == null ? "" : text).orElseThrow(() -> new IllegalArgumentException(
                "time \"" + text + "\" is not 2026-11-20T10:00:00+01:00 or 20/Nov/2026:10:00:00 +0100 (an offset is required)"));
    }

    /** A methods list as typed: {@code GET,HEAD,POST}. */
    public static Set<String> parseMethods(String text) {
        return Arrays.stream((text == null ? "" : text).split(",")).map(String::strip).filter(s -> !s.isEmpty())
                .map(s -> s.toUpperCase(Locale.ROOT)).collect(Collectors.toCollection(TreeSet::new));
    }
}
