package dev.ratecache.accesslog;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVPrinter;

/**
 * Everything the replay's other parts read, prepared from one log and one selection: JMeter's
 * schedule, the client mapping, and the origin's per-path behaviour. Kept as files in the run
 * folder so a run can be inspected, and repeated, from what it actually used.
 */
public record ReplayInput(List<ScheduledRequest> schedule, List<ClientAddress> clients, List<PathProfile> paths,
        ReplaySummary summary) {
    public static final String SCHEDULE_CSV = "schedule.csv";
    public static final String CLIENTS_CSV = "clients.csv";
    public static final String PATHS_CSV = "paths.csv";

    /** JMeter's CSV Data Set names its variables from this header; it must not change. */
    public static final List<String> SCHEDULE_HEADER = List.of("offset_ms", "address", "method", "uri", "client");
    /**
     * The schedule's header when any request carries a key: one column more, so that a schedule
     * without keys stays as it was (and older schedules still replay).
     */
    public static final List<String> KEYED_SCHEDULE_HEADER = List.of("offset_ms", "address", "method", "uri", "client",
            "key");
    public static final List<String> CLIENTS_HEADER = List.of("client", "address", "requests");
    public static final List<String> PATHS_HEADER = List.of("path", "requests", "delay_ms", "body_bytes");

    public ReplayInput {
        schedule = List.copyOf(schedule);
        clients = List.copyOf(clients);
        paths = List.copyOf(paths);
    }

    /** Writes schedule.csv, clients.csv and paths.csv into {@code dir}, which is created if need be. */
    public void write(Path dir) throws IOException {
        Files.createDirectories(dir);
        boolean keyed = keyed();
        try (CSVPrinter csv = printer(dir.resolve(SCHEDULE_CSV), keyed ? KEYED_SCHEDULE_HEADER : SCHEDULE_HEADER)) {
            for (ScheduledRequest r : schedule) {
                if (keyed) {
                    csv.printRecord(r.offsetMs(), r.address(), r.method(), r.uri(), r.client(), r.key());
                } else {
                    csv.printRecord(r.offsetMs(), r.address(), r.method(), r.uri(), r.client());
                }
            }
        }
        try (CSVPrinter csv = printer(dir.resolve(CLIENTS_CSV), CLIENTS_HEADER)) {
            for (ClientAddress c : clients) {
                csv.printRecord(c.client(), c.address(), c.requests());
            }
        }
        try (CSVPrinter csv = printer(dir.resolve(PATHS_CSV), PATHS_HEADER)) {
            for (PathProfile p : paths) {
                csv.printRecord(p.path(), p.requests(), p.delayMs().isPresent() ? p.delayMs().getAsLong() : "",
                        p.bodyBytes());
            }
        }
    }

    /** Whether any request is sent with a key: the schedule then has its key column. */
    public boolean keyed() {
        return schedule.stream().anyMatch(r -> !r.key().isEmpty());
    }

    /** Unix line ends: JMeter and the origin read these files on any platform the same way. */
    private static CSVPrinter printer(Path file, List<String> header) throws IOException {
        Writer out = Files.newBufferedWriter(file, StandardCharsets.UTF_8);
        return new CSVPrinter(out, CSVFormat.DEFAULT.builder().setRecordSeparator("\n")
                .setHeader(header.toArray(String[]::new)).get());
    }
}
