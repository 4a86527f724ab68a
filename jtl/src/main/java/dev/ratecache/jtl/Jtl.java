package dev.ratecache.jtl;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.MalformedInputException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVParser;
import org.apache.commons.csv.CSVPrinter;
import org.apache.commons.csv.CSVRecord;

/**
 * The JTL file: JMeter's CSV results with a header line, in the columns jmeter/suite.properties
 * makes JMeter write. A file written here reads in JMeter's own report generator ({@code -g}) like
 * one JMeter wrote, when it is given the same properties.
 */
public final class Jtl {
    /**
     * The sample variables of jmeter/suite.properties ({@code sample_variables}), the last columns.
     * scheduledAt, client and key are set by the replay plan only, staleMs by the hot-set plan only;
     * other plans leave them empty.
     */
    public static final List<String> VARIABLES = List.of("cacheStatus", "retryAfter", "scheduledAt", "client", "staleMs",
            "key");

    /** The columns, in JMeter's order for the save-service settings of jmeter/suite.properties. */
    public static final List<String> COLUMNS = Stream.concat(Stream.of("timeStamp", "elapsed", "label",
            "responseCode", "responseMessage", "threadName", "dataType", "success", "failureMessage", "bytes",
            "sentBytes", "grpThreads", "allThreads", "URL", "Latency", "IdleTime", "Connect"), VARIABLES.stream()).toList();

    /**
     * The header line as JMeter writes it. JMeter's reader tells a sample variable's column from its
     * own by the quotes around the name: without them its report generator does not know the file.
     */
    public static final String HEADER = String.join(",", COLUMNS.subList(0, COLUMNS.size() - VARIABLES.size())) + ","
            + String.join(",", VARIABLES.stream().map(v -> '"' + v + '"').toList());

    /** The columns a sample cannot do without; the others read as empty or 0 when absent. */
    private static final List<String> REQUIRED = List.of("timeStamp", "elapsed", "label", "responseCode",
            "responseMessage", "threadName", "success");

    private static final CSVFormat READ = CSVFormat.DEFAULT.builder().setHeader().setSkipHeaderRecord(true).get();

    private Jtl() {}

    /**
     * Every sample of a JTL, in file order.
     *
     * @throws IOException when the file is missing or is not a JTL of {@link #COLUMNS} (torn by a
     *     JMeter that was killed, or a user's plan's): one line naming the line or column, quoting
     *     none of the file, so that nothing of it reaches the terminal
     */
    /** The file's text; gunzipped when its name ends in .gz, as a committed run keeps its JTLs small. */
    private static Reader reader(Path jtl) throws IOException {
        if (!jtl.getFileName().toString().endsWith(".gz")) {
            return Files.newBufferedReader(jtl, StandardCharsets.UTF_8);
        }
        return new java.io.BufferedReader(new java.io.InputStreamReader(
                new java.util.zip.GZIPInputStream(Files.newInputStream(jtl)), StandardCharsets.UTF_8.newDecoder()));
    }

    public static List<Sample> read(Path jtl) throws IOException {
        if (!Files.isRegularFile(jtl)) {
            throw new IOException("no results file (" + jtl + ")");
        }
        List<Sample> samples = new ArrayList<>();
        try (Reader in = reader(jtl); CSVParser csv = READ.parse(in)) {
            List<String> missing = REQUIRED.stream().filter(c -> !csv.getHeaderMap().containsKey(c)).toList();
            if (!missing.isEmpty()) {
                throw new IOException(jtl + ": not a JTL of the suite's columns (its header has no "
                        + String.join(", ", missing) + ")");
            }
            for (CSVRecord r : csv) {
                samples.add(sample(jtl, r));
            }
        } catch (IllegalArgumentException e) {
            // commons-csv's, for a header that names a column twice or is empty; its message quotes the header.
            throw new IOException(jtl + ": not a JTL of the suite's columns (its header names a column twice, or none)");
        } catch (UncheckedIOException e) {
            throw notCsv(jtl, e.getCause());
        } catch (MalformedInputException e) {
            throw notCsv(jtl, e);
        }
        return samples;
    }

    /** commons-csv's messages say where, never what: "(line 3) invalid char between encapsulated token and delimiter". */
    private static IOException notCsv(Path jtl, IOException e) {
        return new IOException(jtl + ": not CSV as JMeter writes it ("
                + (e instanceof MalformedInputException ? "not UTF-8 text" : e.getMessage()) + ")", e);
    }

    private static Sample sample(Path jtl, CSVRecord r) throws IOException {
        // More values than columns were always read (the extra ignored); fewer leave a column without one.
        if (r.size() < r.getParser().getHeaderNames().size()) {
            throw new IOException(jtl + " record " + r.getRecordNumber() + ": " + r.size() + " values for the header's "
                    + r.getParser().getHeaderNames().size() + " columns");
        }
        try {
            return new Sample(Long.parseLong(r.get("timeStamp")), Long.parseLong(r.get("elapsed")),
                    r.get("label"), r.get("responseCode"), r.get("responseMessage"), r.get("threadName"),
                    Boolean.parseBoolean(r.get("success")), parseLong(optional(r, "bytes")),
                    (int) parseLong(optional(r, "allThreads")), optional(r, "URL"),
                    optional(r, "cacheStatus"), optional(r, "retryAfter"),
                    scheduledAt(optional(r, "scheduledAt")), optional(r, "client"),
                    staleMs(optional(r, "staleMs")), key(optional(r, "key")));
        } catch (NumberFormatException e) {
            throw new IOException(jtl + " record " + r.getRecordNumber() + ": a number column (timeStamp, elapsed, bytes,"
                    + " allThreads, scheduledAt or staleMs) holds no whole number");
        }
    }

    /** Writes {@code samples} as a JTL with every column of {@link #COLUMNS}. */
    public static void write(Path jtl, List<Sample> samples) throws IOException {
        try (Writer out = Files.newBufferedWriter(jtl, StandardCharsets.UTF_8);
                CSVPrinter csv = new CSVPrinter(out, CSVFormat.DEFAULT.builder().setRecordSeparator("\n").get())) {
            out.write(HEADER + "\n");
            for (Sample s : samples) {
                csv.printRecord(s.timeStamp(), s.elapsed(), s.label(), s.responseCode(), s.responseMessage(),
                        s.threadName(), "text", s.success(), s.success() ? "" : s.responseMessage(), s.bytes(), 0,
                        s.threads(), s.threads(), s.url(),
                        // Latency is time to first byte; a client that reads whole responses only has the total.
                        s.elapsed(), 0, 0, s.cacheStatus(), s.retryAfter(),
                        s.scheduled() ? String.valueOf(s.scheduledAt()) : "", s.client(),
                        s.stale() ? String.valueOf(s.staleMs()) : "", s.key());
            }
        }
    }

    private static String optional(CSVRecord r, String column) {
        return r.isMapped(column) ? r.get(column) : "";
    }

    /**
     * Older JTLs have no such column and the other plans leave it empty; JMeter writes "null" for a
     * sample variable a plan never set (a user's own plan). All three: no due time.
     */
    private static long scheduledAt(String text) {
        return text.isEmpty() || text.equals("null") ? Sample.UNSCHEDULED : Long.parseLong(text);
    }

    /** As {@link #scheduledAt}: empty, "null" or no column at all is not a stale read. */
    private static long staleMs(String text) {
        return text.isEmpty() || text.equals("null") ? Sample.NOT_STALE : Long.parseLong(text);
    }

    /** JMeter writes "null" for a sample variable a plan never set: no key. */
    private static String key(String text) {
        return text.equals("null") ? "" : text;
    }

    private static long parseLong(String text) {
        return text.isEmpty() ? 0 : Long.parseLong(text);
    }
}
