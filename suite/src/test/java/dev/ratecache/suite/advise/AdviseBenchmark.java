package dev.ratecache.suite.advise;

import dev.ratecache.accesslog.AccessLog;
import dev.ratecache.accesslog.LogFormat;
import dev.ratecache.accesslog.ParsedLog;
import dev.ratecache.accesslog.ReadOptions;
import dev.ratecache.testkit.TestDirs;
import java.io.BufferedWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.Random;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * How long advise takes over a million combined-log lines: reading them (replay's reader) and the
 * sweeps. A benchmark, not a timed test: it prints the times and asserts nothing about them, since
 * a busy machine must not fail the build. Run it with
 * {@code ./mvnw -B -q -pl suite test -Dtest=AdviseBenchmark -Dbenchmark=true -Dsurefire.failIfNoSpecifiedTests=false}.
 */
@Tag("benchmark")
@EnabledIfSystemProperty(named = "benchmark", matches = "true")
class AdviseBenchmark {
    static final int LINES = 1_000_000;

    @Test
    void aMillionLines() throws Exception {
        Path log = TestDirs.fresh(AdviseBenchmark.class, "log").resolve("million.txt");
        DateTimeFormatter combined = DateTimeFormatter.ofPattern("dd/MMM/yyyy:HH:mm:ss Z", Locale.ROOT);
        ZonedDateTime start = ZonedDateTime.of(2026, 11, 20, 0, 0, 0, 0, ZoneOffset.UTC);
        Random random = new Random(1);
        // A day at about 11.6 r/s from 5000 clients over 200 paths, plus one scraper.
        try (BufferedWriter out = Files.newBufferedWriter(log)) {
            for (int i = 0; i < LINES; i++) {
                long second = (long) i * 86_400 / LINES;
                String client = i % 20 == 0 ? "203.0.113.9" : "10.0." + random.nextInt(20) + "." + random.nextInt(250);
                String path = "/p/" + (int) Math.floor(Math.pow(random.nextDouble(), 3) * 200);
                out.write(client + " - - [" + combined.format(start.plusSeconds(second)) + "] \"GET " + path
                        + " HTTP/1.1\" 200 1024 \"-\" \"bench\"\n");
            }
        }
        long t0 = System.nanoTime();
        ParsedLog parsed = AccessLog.read(log, LogFormat.parse("auto"), ReadOptions.defaults());
        long t1 = System.nanoTime();
        Advisor.Advice advice = Advisor.advise(parsed.requests(), parsed.resolution(),
                new Advisor.Options(100.0, 1, null, 10, false));
        long t2 = System.nanoTime();
        System.out.printf(Locale.ROOT, "advise benchmark: %d lines, read %.2f s, sweeps %.2f s, total %.2f s on %d cores;"
                        + " recommended front rate=%dr/s burst=%d, %d outlier(s)%n",
                parsed.lines(), (t1 - t0) / 1e9, (t2 - t1) / 1e9, (t2 - t0) / 1e9,
                Runtime.getRuntime().availableProcessors(), advice.frontPick().rate(), advice.frontPick().burst(),
                advice.outliers().size());
    }
}
