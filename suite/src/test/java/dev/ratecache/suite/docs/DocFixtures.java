package dev.ratecache.suite.docs;

import dev.ratecache.suite.Repo;
import dev.ratecache.suite.nginx.ThrowawayCa;
import dev.ratecache.suite.spec.TlsFiles;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.zip.GZIPOutputStream;

/**
 * The files the docs' commands name (your access log, your tiers, your plan, your certificate),
 * made as a reader would have them, in one folder: a command's word that names one of them is
 * given that file.
 */
public final class DocFixtures {
    /** The docs' replay window is 10:00 to 11:00 on this day, +01:00: the log spans it. */
    private static final ZonedDateTime START = ZonedDateTime.parse("2026-11-20T10:00:00+01:00");
    private static final List<String> PATHS = List.of("/hare", "/tortoise", "/snail", "/hare?page=2");

    private DocFixtures() {}

    /**
     * What nginx would log in advise's dry-run log format (nginx/dry-run/limit-req-status-log.conf) had
     * the docs' nginx.conf run with limit_req_dry_run on: a client at 5 r/s and one at 50 r/s on /api/,
     * for 3 s; the statuses are the model's (limit_req at 10 r/s, burst 20 nodelay), as nginx's were
     * in AdviseShadowStackTest.
     */
    public static List<String> dryRunLog() {
        dev.ratecache.model.LimitReq zone = new dev.ratecache.model.LimitReq(
                dev.ratecache.model.LimitReqSpec.nodelay(dev.ratecache.model.Rate.perSecond(10), 20));
        List<String> lines = new ArrayList<>();
        long start = START.toInstant().toEpochMilli();
        for (long ms = 0; ms < 3000; ms += 20) {
            for (String ip : List.of("192.0.2.10", "192.0.2.66")) {
                if (ip.equals("192.0.2.10") && ms % 200 != 0) {
                    continue;
                }
                String status = zone.decide(ip, start + ms).status().name();
                lines.add(String.format(Locale.ROOT, "{\"time\":%d.%03d,\"request_time\":0.001,\"client\":\"%s\","
                        + "\"method\":\"GET\",\"uri\":\"/api/items\",\"status\":200,\"bytes\":512,\"limit_req\":\"%s\"}",
                        (start + ms + 1) / 1000, (start + ms + 1) % 1000, ip,
                        status.equals("PASSED") ? status : status + "_DRY_RUN"));
            }
        }
        return lines;
    }

    /** Writes every fixture into {@code dir}; returns it. */
    public static Path write(Path dir) throws IOException {
        Files.createDirectories(dir);
        List<String> combined = new ArrayList<>();
        List<String> json = new ArrayList<>();
        DateTimeFormatter clf = DateTimeFormatter.ofPattern("dd/MMM/yyyy:HH:mm:ss Z", Locale.ROOT);
        // Twenty clients, each every 3 s for 70 s, over four paths: enough for advise (at least 60 s and
        // 100 requests) and short enough to replay whole in a test.
        for (int second = 0; second < 70; second++) {
            for (int client = 0; client < 20; client++) {
                if ((second + client) % 3 != 0) {
                    continue;
                }
                ZonedDateTime at = START.plusSeconds(second);
                String ip = "192.0.2." + (10 + client);
                String path = PATHS.get((second / 3 + client) % PATHS.size());
                combined.add(ip + " - - [" + clf.format(at) + "] \"GET " + path + " HTTP/1.1\" 200 512 \"-\" \"docs/1.0\"");
                json.add("{\"ts\":\"" + at.toOffsetDateTime() + "\",\"ip\":\"" + ip + "\",\"verb\":\"GET\",\"path\":\"" + path
                        + "\"}");
            }
        }
        Files.write(dir.resolve("access.log"), combined, StandardCharsets.UTF_8);
        try (OutputStream gz = new GZIPOutputStream(Files.newOutputStream(dir.resolve("access.log.gz")))) {
            gz.write((String.join("\n", combined) + "\n").getBytes(StandardCharsets.UTF_8));
        }
        Files.write(dir.resolve("app.jsonl"), json, StandardCharsets.UTF_8);
        Files.writeString(dir.resolve("tiers.txt"), """
                # tier  rate  burst  mode     keys
                free    20    20     nodelay  free-1,free-2
                pro     40    40     nodelay  pro-1
                """);
        Files.writeString(dir.resolve("checks.txt"), """
                # one check per line
                stress/server-cache.rejected_pct == 0
                load/both.p95_ms < 3000
                """);
        Files.writeString(dir.resolve("nginx.conf"), YourConfigPage.example());
        Files.write(dir.resolve("limit-dry-run.log"), dryRunLog(), StandardCharsets.UTF_8);
        Files.copy(Repo.plans().resolve("stress.jmx"), dir.resolve("my-plan.jmx"));
        Files.copy(Repo.plans().resolve("hotset.jmx"), dir.resolve("my-items.jmx"));
        TlsFiles tls = ThrowawayCa.write(dir.resolve("ca"), List.of("127.0.0.1"));
        Files.copy(tls.certificate(), dir.resolve("edge.pem"));
        Files.copy(tls.key(), dir.resolve("edge.key"));
        return dir;
    }
}
