package dev.ratecache.accesslog;

import java.util.List;

/**
 * The lines the format did not fit. Only the first few numbers are kept: enough for the user to open
 * the log and see what is different, without holding a number per line of a log that is all wrong.
 *
 * @param count how many lines did not parse
 * @param firstLines the numbers of the first {@link #REPORTED} of them, in file order
 */
public record BadLines(long count, List<Long> firstLines) {
    public static final int REPORTED = 5;

    public BadLines {
        firstLines = List.copyOf(firstLines);
    }

    public static BadLines none() {
        return new BadLines(0, List.of());
    }
}
