package dev.ratecache.accesslog;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.zip.GZIPInputStream;

/**
 * Reads a user's access log into {@link ParsedLog}. Everything that can be wrong with the file is
 * found here, before anything starts, and told in one line: a replay that fails half-way through
 * setting up nginx is a worse place to learn that the log was the wrong one.
 *
 * <p>{@link LogFormat#AUTO} looks at the first {@value #DETECTION_LINES} non-blank lines and takes
 * the format of {@link LogFormat#RECOGNISED} under which most of them parse, so a torn first line or
 * two do not decide. The three accept disjoint lines (common allows nothing after the body size),
 * so a tie cannot arise today; should one, the format listed first wins (suite-json, combined,
 * common). When none parses a single one of them, reading fails and asks for {@code --log-format}. The chosen
 * format then reads the whole log, under the same bad-line limit as a named one.
 */
public final class AccessLog {
    /** Enough lines to step over a torn first line or two, few enough to decide at once. */
    public static final int DETECTION_LINES = 10;

    /** How much of a bad line a message quotes: enough to recognise it, short enough for one line. */
    static final int EXAMPLE_CHARS = 120;

    /**
     * The longest line read, in characters (1 MiB); a longer one is a bad line, of which only this
     * much is held. nginx's large_client_header_buffers caps the request line and each header at
     * one buffer (8 KiB unless raised; 64 KiB is a generous setting), and its log escapes every byte
     * outside printable ASCII as four characters ({@code \xHH}): a combined line's request, referer
     * and user agent at 64 KiB each, all escaped, come to 768 KiB.
     */
    public static final int MAX_LINE_CHARS = 1 << 20;

    /** {@link #MAX_LINE_CHARS} in words, for messages and help. */
    public static final String MAX_LINE = "1 MiB (" + MAX_LINE_CHARS + " characters)";

    private static final int GZIP_MAGIC_1 = 0x1f;
    private static final int GZIP_MAGIC_2 = 0x8b;

    private AccessLog() {}

    /**
     * Every request of the log, ordered by time.
     *
     * @throws AccessLogException when the file is missing, unreadable or empty, when more lines than
     *     {@link ReadOptions#badLinePercentLimit()} allows are not in the format, when auto finds no
     *     format, or when no line is a request (how many a use needs is the user's to say: a
     *     replay needs two, advice a minute's worth)
     */
    public static ParsedLog read(Path file, LogFormat format, ReadOptions options) throws AccessLogException {
        // Quoted in every message about the log: escaped, so that a line break in it splits none.
        String name = Printable.shown(file.toString());
        if (Files.isDirectory(file)) {
            throw new AccessLogException(name + ": is a directory, not an access log");
        }
        // A device or a pipe may never end (/dev/zero has no line break to stop at): refused, not read.
        if (Files.exists(file) && !Files.isRegularFile(file)) {
            throw new AccessLogException(UserFile.problem(file).orElseThrow());
        }
        try (LineReader in = open(file)) {
            return read(name, file, in, format, options);
        } catch (NoSuchFileException e) {
            throw new AccessLogException(name + ": no such file", e);
        } catch (AccessDeniedException e) {
            throw new AccessLogException(name + ": cannot be read (permission denied)", e);
        } catch (IOException e) {
            throw new AccessLogException(name + ": cannot be read (" + e.getMessage() + ")", e);
        }
    }

    /** Gzip is told by its magic bytes, since rotated logs are not always named .gz (access.log.1 may be either). */
    private static LineReader open(Path file) throws IOException {
        InputStream raw = new BufferedInputStream(Files.newInputStream(file));
        try {
            raw.mark(2);
            int b1 = raw.read();
            int b2 = raw.read();
            raw.reset();
            InputStream in = b1 == GZIP_MAGIC_1 && b2 == GZIP_MAGIC_2 ? new GZIPInputStream(raw, 1 << 16) : raw;
            // A decoder that replaces what is not UTF-8, rather than failing: logs quote whatever clients sent.
            return new LineReader(new InputStreamReader(in, StandardCharsets.UTF_8), MAX_LINE_CHARS);
        } catch (IOException e) {
            raw.close();
            throw e;
        }
    }

    /** A non-blank line; when {@code tooLong}, {@code text} is its first {@link #MAX_LINE_CHARS} characters. */
    private record Line(long number, String text, boolean tooLong) {
        /** Parsed in {@code format}; empty when it is not in it, or too long to have been read whole. */
        Optional<LoggedRequest> parse(LogFormat format, String keyField) {
            return tooLong ? Optional.empty() : format.parseLine(number, text, keyField);
        }

        /** The line fit for a one-line message, with its number. */
        String quoted() {
            return "line " + number + (tooLong ? " is longer than " + MAX_LINE + ", the most a line may have" : "")
                    + ": \"" + example(text) + "\"";
        }
    }

    private static ParsedLog read(String name, Path file, LineReader in, LogFormat format, ReadOptions options)
            throws IOException, AccessLogException {
        List<Line> first = new ArrayList<>();
        long number = 0;
        LineReader.Line read;
        while (first.size() < DETECTION_LINES && (read = in.next()) != null) {
            number++;
            if (read.tooLong() || !read.text().isBlank()) {
                first.add(new Line(number, read.text(), read.tooLong()));
            }
        }
        if (first.isEmpty()) {
            throw new AccessLogException(name + ": the log is empty");
        }
        LogFormat used = format instanceof LogFormat.Auto ? detect(name, first) : format;
        String keyField = options.keyField().orElse(null);
        if (keyField != null && !used.hasFields()) {
            throw new AccessLogException(name + ": --key-field " + keyField + " needs a log with named fields"
                    + " (suite-json or json:...); this log is read as " + used.spelling() + ", which has none");
        }

        List<LoggedRequest> requests = new ArrayList<>();
        long lines = 0;
        long bad = 0;
        long tooLong = 0;
        List<Long> firstBad = new ArrayList<>();
        Line example = null;
        Iterator<Line> sample = first.iterator();
        while (true) {
            Line l;
            if (sample.hasNext()) {
                l = sample.next();
            } else if ((read = in.next()) != null) {
                number++;
                if (!read.tooLong() && read.text().isBlank()) {
                    continue;
                }
                l = new Line(number, read.text(), read.tooLong());
            } else {
                break;
            }
            lines++;
            Optional<LoggedRequest> r = l.parse(used, keyField);
            if (r.isPresent()) {
                requests.add(r.get());
            } else {
                if (bad++ < BadLines.REPORTED) {
                    firstBad.add(l.number());
                }
                tooLong += l.tooLong() ? 1 : 0;
                // Only the first is quoted: the others need not be held.
                example = example == null ? l : example;
            }
        }

        double percent = 100.0 * bad / lines;
        if (percent > options.badLinePercentLimit()) {
            throw new AccessLogException(String.format(Locale.ROOT, "%s: %d of %d lines (%.1f %%) are not %s (limit %s %%); %s",
                    name, bad, lines, percent, used.description(), plain(options.badLinePercentLimit()), example.quoted()));
        }
        if (requests.isEmpty()) {
            throw new AccessLogException(name + ": no requests in the log");
        }
        // Stable: requests logged in the same second (all of them, in a busy combined log) keep the log's order.
        requests.sort(Comparator.comparing(r -> r.time().toInstant()));
        return new ParsedLog(file, used, lines, requests, new BadLines(bad, firstBad, tooLong), used.resolution(requests),
                options.keyField());
    }

    private static LogFormat detect(String name, List<Line> sample) throws AccessLogException {
        LogFormat best = null;
        long bestCount = 0;
        if (sample.stream().allMatch(Line::tooLong)) {
            throw new AccessLogException(sample.size() == 1 ? name + ": " + sample.get(0).quoted()
                    : String.format(Locale.ROOT, "%s: the first %d lines are each longer than %s, the most a line may have;"
                            + " line %d: \"%s\"", name, sample.size(), MAX_LINE, sample.get(0).number(),
                            example(sample.get(0).text())));
        }
        for (LogFormat candidate : LogFormat.RECOGNISED) {
            long count = sample.stream().filter(l -> l.parse(candidate, null).isPresent()).count();
            if (count > bestCount) {
                best = candidate;
                bestCount = count;
            }
        }
        if (best == null) {
            throw new AccessLogException(String.format(Locale.ROOT,
                    "%s: the first %d lines are in none of the formats auto knows (%s); %s; name the format with --log-format, "
                            + "e.g. json:time=ts,client=ip,method=verb,uri=path",
                    name, sample.size(), String.join(", ", LogFormat.RECOGNISED.stream().map(LogFormat::spelling).toList()),
                    sample.get(0).quoted()));
        }
        return best;
    }

    /** A bad line fit for a one-line message: cut short, with what is not printable escaped. */
    static String example(String line) {
        return Printable.escape(line, EXAMPLE_CHARS);
    }

    /** 1 rather than 1.0, 0.5 rather than 0.50: the limit as the user would have typed it. */
    static String plain(double value) {
        return BigDecimal.valueOf(value).stripTrailingZeros().toPlainString();
    }
}
