package dev.ratecache.suite.jmeter;

import dev.ratecache.jtl.Jtl;
import dev.ratecache.jtl.Lateness;
import dev.ratecache.jtl.Sample;
import dev.ratecache.suite.Repo;
import dev.ratecache.testkit.TestDirs;
import java.io.OutputStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * The replay rate this machine's JMeter sustains on schedule: replay.jmx (warmed up, 200 threads)
 * sends 10 s of evenly spaced requests from 100 client addresses at rising rates to a server that
 * answers at once, and prints each rate's start lateness. The highest rate with a p99 under 10 ms
 * is what a replay can ask of this machine with its figures still the log's. A benchmark, not a
 * timed test: it asserts nothing about the times. Run it with
 * {@code ./mvnw -B -q -pl suite test -Dtest=ReplayBenchmark -Dbenchmark=true -Dsurefire.failIfNoSpecifiedTests=false}.
 */
@Tag("benchmark")
@EnabledIfSystemProperty(named = "benchmark", matches = "true")
class ReplayBenchmark {
    private static final int[] RATES = {50, 100, 200, 400, 800, 1600, 3200};
    private static final int SECONDS = 10;

    @Test
    void latenessByRate() throws Exception {
        byte[] body = "ok\n".getBytes(StandardCharsets.UTF_8);
        try (TestServer server = TestServer.start("/", exchange -> {
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        })) {
            int sustained = 0;
            StringBuilder table = new StringBuilder();
            for (int rate : RATES) {
                Path dir = TestDirs.fresh(ReplayBenchmark.class, "rate-" + rate);
                Path schedule = dir.resolve("schedule.csv");
                try (Writer out = Files.newBufferedWriter(schedule)) {
                    out.write("offset_ms,address,method,uri,client\n");
                    for (int i = 0; i < rate * SECONDS; i++) {
                        int client = i % 100;
                        out.write((long) i * 1000 / rate + ",127.16.0." + (client + 1) + ",GET,/p" + (i % 50) + ",c" + client + "\n");
                    }
                }
                String url = "http://127.0.0.1:" + server.port();
                JMeter.Run run = JMeter.assembled().run(Repo.plans().resolve("replay.jmx"), Map.of("host", "127.0.0.1",
                        "port", String.valueOf(server.port()), "schedule", schedule.toString(), "warmup_url", url + "/warmup"),
                        dir.resolve("jmeter"));
                List<Sample> samples = Jtl.read(run.jtl());
                Lateness l = Lateness.of(samples);
                table.append(String.format(Locale.ROOT, "  %5d r/s: %6d samples, start lateness p50 %d ms, p99 %d ms, max %d ms%n",
                        rate, samples.size(), l.p50Ms(), l.p99Ms(), l.maxMs()));
                if (l.p99Ms() < 10 && samples.size() == rate * SECONDS) {
                    sustained = rate;
                }
                if (l.p99Ms() > 100) {
                    break;
                }
            }
            System.out.printf(Locale.ROOT, "replay benchmark on %d cores (%d s per rate):%n%s  on schedule"
                    + " (p99 < 10 ms) up to %d r/s%n", Runtime.getRuntime().availableProcessors(), SECONDS, table, sustained);
        }
    }
}
