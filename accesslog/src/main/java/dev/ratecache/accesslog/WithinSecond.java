package dev.ratecache.accesslog;

import java.util.Arrays;

/**
 * Where, inside its logged second, a request of a {@link TimeResolution#WHOLE_SECONDS} log is taken
 * to have come. The truth lies between the two readings, and neither is a strict bound (the end of
 * one second may meet the start of the next), so advice works out both and says which it assumed.
 */
public enum WithinSecond {
    /** At the second it was logged in, as written: a second's requests all at once. */
    START("bunched at the start of their second (the times as written)", "bunched at the start"),
    /**
     * Spread evenly over the second, in the log's order (nginx writes a line when the response
     * ends, close to the order of arrival): of k requests logged in one second, the j-th comes at
     * the middle of the j-th of k equal slices of it.
     */
    SPREAD("spread evenly over their second, in the log's order", "spread evenly");

    private final String words;
    private final String shortWords;

    WithinSecond(String words, String shortWords) {
        this.words = words;
        this.shortWords = shortWords;
    }

    /** For a table's heading: "bunched at the start", "spread evenly". */
    public String shortWords() {
        return shortWords;
    }

    /** For advice and reports: what this reading takes the requests' times to be. */
    public String words() {
        return words;
    }

    /** The other reading: the one a figure is compared with. */
    public WithinSecond other() {
        return this == START ? SPREAD : START;
    }

    /** The spelling {@code --within-second} takes. */
    public String spelling() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }

    /**
     * The times under this reading, in milliseconds.
     *
     * @param loggedMillis times in whole seconds (as milliseconds), in ascending order
     * @return new times, still in ascending order; the same times for {@link #START}
     * @throws IllegalArgumentException when the times are not in order
     */
    public long[] place(long[] loggedMillis) {
        long[] out = Arrays.copyOf(loggedMillis, loggedMillis.length);
        if (this == START) {
            return out;
        }
        int first = 0;
        while (first < out.length) {
            long second = Math.floorDiv(loggedMillis[first], 1000L);
            int end = first + 1;
            while (end < out.length && Math.floorDiv(loggedMillis[end], 1000L) == second) {
                end++;
            }
            if (end < out.length && loggedMillis[end] < loggedMillis[end - 1]) {
                throw new IllegalArgumentException("times out of order at index " + end);
            }
            int k = end - first;
            for (int j = 0; j < k; j++) {
                out[first + j] = second * 1000L + (2L * j + 1) * 1000L / (2L * k);
            }
            first = end;
        }
        return out;
    }
}
