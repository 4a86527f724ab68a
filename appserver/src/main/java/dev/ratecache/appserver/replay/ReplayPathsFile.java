package dev.ratecache.appserver.replay;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVParser;
import org.apache.commons.csv.CSVRecord;

/**
 * Reads the paths file that the suite writes from an access log. Anything it cannot take at its
 * word stops the start, because a replay against figures the origin guessed would measure
 * something other than the log.
 */
final class ReplayPathsFile {

    static final List<String> HEADER = List.of("path", "requests", "delay_ms", "body_bytes");

    /** The header with each path's own lifetime (./run-tests.sh replay --use-advice writes it). */
    static final List<String> HEADER_WITH_MAX_AGE = List.of("path", "requests", "delay_ms", "body_bytes", "max_age_s");

    private static final CSVFormat FORMAT = CSVFormat.DEFAULT.builder()
            .setHeader()
            .setSkipHeaderRecord(true)
            .get();

    private ReplayPathsFile() {
    }

    /** The rows by path, in file order. */
    static Map<String, ReplayPath> read(Path file) {
        try (Reader reader = open(file); CSVParser csv = FORMAT.parse(reader)) {
            checkHeader(file, csv.getHeaderNames());
            Map<String, ReplayPath> paths = new LinkedHashMap<>();
            Iterator<CSVRecord> rows = csv.iterator();
            while (true) {
                // Counted before the row is read: after it, a last line without a line break reads one short.
                Row row = new Row(file, csv.getCurrentLineNumber() + 1);
                if (!rows.hasNext()) {
                    break;
                }
                ReplayPath path = row.parse(rows.next());
                if (paths.putIfAbsent(path.path(), path) != null) {
                    throw row.problem("path " + path.path() + " is listed twice");
                }
            }
            return paths;
        }
        catch (IOException | UncheckedIOException ex) {
            // commons-csv reports a broken quote while iterating, as an UncheckedIOException.
            Throwable cause = (ex instanceof UncheckedIOException unchecked) ? unchecked.getCause() : ex;
            throw new ReplayPathsFileException(file, "not valid CSV: " + describe(cause), ex);
        }
        catch (IllegalArgumentException ex) {
            // commons-csv refuses a header with duplicate or blank names this way.
            throw new ReplayPathsFileException(file, "line 1: " + ex.getMessage(), ex);
        }
    }

    // Apart from the parsing, so that a missing file is not reported as bad CSV.
    private static Reader open(Path file) {
        try {
            return Files.newBufferedReader(file, StandardCharsets.UTF_8);
        }
        catch (IOException ex) {
            throw new ReplayPathsFileException(file, "cannot be read: " + describe(ex), ex);
        }
    }

    private static void checkHeader(Path file, List<String> names) {
        if (names.isEmpty()) {
            throw new ReplayPathsFileException(file, "the file is empty, without even the header line");
        }
        if (!HEADER.equals(names) && !HEADER_WITH_MAX_AGE.equals(names)) {
            throw new ReplayPathsFileException(file, "line 1: the header is " + String.join(",", names)
                    + " but must be " + String.join(",", HEADER));
        }
    }

    /** One row, with the line it starts on for the message that refuses it. */
    private record Row(Path file, long line) {

        ReplayPath parse(CSVRecord row) {
            int fields = row.getParser().getHeaderNames().size();
            if (row.size() != fields) {
                throw problem(fields + " fields expected, found " + row.size());
            }
            String path = row.get("path");
            if (!path.startsWith("/") || path.contains("?")) {
                throw problem("path must start with / and have no query, found '" + path + "'");
            }
            wholeNumber(row, "requests");
            String delay = row.get("delay_ms").strip();
            Optional<Duration> delayMs = delay.isEmpty() ? Optional.empty() : Optional.of(milliseconds(delay));
            Optional<Duration> maxAge = Optional.empty();
            if (row.isMapped("max_age_s") && !row.get("max_age_s").isBlank()) {
                maxAge = Optional.of(Duration.ofSeconds(wholeNumber(row, "max_age_s")));
            }
            return new ReplayPath(path, delayMs, wholeNumber(row, "body_bytes"), maxAge);
        }

        private long wholeNumber(CSVRecord row, String field) {
            String value = row.get(field).strip();
            try {
                long number = Long.parseLong(value);
                if (number >= 0) {
                    return number;
                }
            }
            catch (NumberFormatException ex) {
                // Reported below, with what a non-negative number looks like.
            }
            throw problem(field + " must be a whole number, 0 or more, found '" + value + "'");
        }

        // Logs time to the millisecond or finer, so a fraction (12.5) is kept rather than refused.
        private Duration milliseconds(String value) {
            try {
                BigDecimal millis = new BigDecimal(value);
                if (millis.signum() >= 0) {
                    return Duration.ofNanos(millis.movePointRight(6).setScale(0, RoundingMode.HALF_UP).longValueExact());
                }
            }
            catch (NumberFormatException | ArithmeticException ex) {
                // Reported below, with what a delay looks like.
            }
            throw problem("delay_ms must be empty or a number of milliseconds, 0 or more, found '" + value + "'");
        }

        ReplayPathsFileException problem(String what) {
            return new ReplayPathsFileException(file, "line " + line + ": " + what);
        }
    }

    private static String describe(Throwable cause) {
        String message = cause.getMessage();
        if (cause instanceof NoSuchFileException) {
            return "no such file";
        }
        if (cause instanceof AccessDeniedException) {
            return "permission denied";
        }
        return (message != null) ? message.strip().replaceAll("\\s+", " ") : cause.getClass().getSimpleName();
    }
}
