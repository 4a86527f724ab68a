package dev.ratecache.accesslog;

import java.io.Closeable;
import java.io.IOException;
import java.io.Reader;

/**
 * The lines of a text, ended as {@link java.io.BufferedReader#readLine} ends them (a line feed, a
 * carriage return, or both), but never more than {@code maxChars} of a line held: BufferedReader
 * holds a whole line however long, and a file with no line end for gigabytes would fill the heap.
 */
final class LineReader implements Closeable {
    /**
     * One line.
     *
     * @param text the line, or its first {@code maxChars} characters when it is longer
     * @param tooLong whether it was longer, and so is not all in {@code text}
     */
    record Line(String text, boolean tooLong) {}

    private final Reader in;
    private final int maxChars;
    private final char[] buffer = new char[1 << 16];
    private final StringBuilder line = new StringBuilder();
    private int at;
    private int end;
    /** A carriage return ended the last line: a line feed right after it belongs to that end. */
    private boolean afterCr;

    LineReader(Reader in, int maxChars) {
        this.in = in;
        this.maxChars = maxChars;
    }

    /** The next line, without its end; null after the last. */
    Line next() throws IOException {
        line.setLength(0);
        boolean tooLong = false;
        boolean started = false;
        while (true) {
            if (at == end) {
                int n = in.read(buffer);
                if (n < 0) {
                    return started ? new Line(line.toString(), tooLong) : null;
                }
                at = 0;
                end = n;
                continue;
            }
            if (afterCr) {
                afterCr = false;
                if (buffer[at] == '\n') {
                    at++;
                    continue;
                }
            }
            started = true;
            int from = at;
            while (at < end && buffer[at] != '\n' && buffer[at] != '\r') {
                at++;
            }
            int room = maxChars - line.length();
            line.append(buffer, from, Math.min(room, at - from));
            tooLong |= at - from > room;
            if (at < end) {
                afterCr = buffer[at++] == '\r';
                return new Line(line.toString(), tooLong);
            }
        }
    }

    @Override
    public void close() throws IOException {
        in.close();
    }
}
