package dev.ratecache.accesslog;

import java.util.List;
import java.util.stream.Collectors;

/**
 * The lines the format did not fit. Only the first few numbers are kept: enough for the user to open
 * the log and see what is different, without holding a number per line of a log that is all wrong.
 *
 * @param count how many lines did not parse
 * @param firstLines the numbers of the first {@link #REPORTED} of them, in file order
 * @param tooLong how many of them were longer than {@link AccessLog#MAX_LINE_CHARS}, and so were not read whole
 */
public record BadLines(long count, List<Long> firstLines, long tooLong) {
    public static final int REPORTED = 5;

    public BadLines {
        firstLines = List.copyOf(firstLines);
    }

    public BadLines(long count, List<Long> firstLines) {
        this(count, firstLines, 0);
    }

    /** For a summary: how many, the first of them, and how many were too long to be read. */
    public String text() {
        if (count == 0) {
            return "no bad lines";
        }
        return count + (count == 1 ? " bad line (at line" : " bad lines (first at line") + (firstLines.size() > 1 ? "s " : " ")
                + firstLines.stream().map(String::valueOf).collect(Collectors.joining(", "))
                + (tooLong == 0 ? "" : "; " + tooLong + " longer than " + AccessLog.MAX_LINE + ", the most a line may have")
                + ")";
    }

    public static BadLines none() {
        return new BadLines(0, List.of());
    }
}
