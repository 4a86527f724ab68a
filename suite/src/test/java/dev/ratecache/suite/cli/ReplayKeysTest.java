package dev.ratecache.suite.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ratecache.suite.edge.NginxLog;
import dev.ratecache.suite.matrix.ReplayBreakdown;
import dev.ratecache.suite.replay.ReplayCellReport;
import dev.ratecache.suite.stack.StackPorts;
import dev.ratecache.testkit.LongTest;
import dev.ratecache.testkit.StackTest;
import dev.ratecache.testkit.TestDirs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/**
 * replay --key-field through real tiers: the keys of a JSON log go out in the limit key's header, so
 * nginx limits each key apart while every request of the log's one client leaves from one address.
 */
@StackTest
@LongTest
class ReplayKeysTest {
    private static final OffsetDateTime START = OffsetDateTime.of(2026, 11, 20, 10, 0, 0, 0, ZoneOffset.ofHours(1));

    private Path dir;
    private final CommandRun cli = new CommandRun();

    @BeforeEach
    void dir(TestInfo test) {
        dir = TestDirs.fresh(test);
    }

    private int run(List<String> args) {
        return cli.run(args.toArray(String[]::new));
    }

    /** A line of the suite's own JSON log, {@code ms} after START, with the key in field api_key (none when empty). */
    private static String line(long ms, String client, String uri, String key) {
        return "{\"time\":\"" + DateTimeFormatter.ISO_OFFSET_DATE_TIME.format(START.plusNanos(ms * 1_000_000))
                + "\",\"client\":\"" + client + "\",\"method\":\"GET\",\"uri\":\"" + uri + "\",\"status\":200,"
                + "\"bytes\":512,\"request_time\":0.010,\"upstream_time\":\"0.010\""
                + (key.isEmpty() ? "" : ",\"api_key\":\"" + key + "\"") + "}";
    }

    private Path runFolder() throws IOException {
        try (Stream<Path> runs = Files.list(dir.resolve("results"))) {
            return runs.filter(p -> !p.getFileName().toString().equals("latest")).findFirst().orElseThrow();
        }
    }

    @Test
    void aKeyOverItsTiersLimitIsRejectedWhileAnotherKeyFromTheSameAddressIsNot() throws Exception {
        // One client (one address) for 6 s: key "noisy" at 20 r/s, key "calm" at 1 r/s, both in tier
        // free (2 r/s, burst 2, nodelay); an unknown key at 1 r/s (anonymous: the front's 100 r/s) and
        // a keyless request every 2 s (by address). Calm's 1 r/s stays inside 2 r/s with a burst of 2
        // even if a busy machine sends three of its requests at once; noisy sends ten times the rate.
        List<String> lines = new ArrayList<>();
        for (long ms = 0; ms < 6_000; ms += 50) {
            lines.add(line(ms, "198.51.100.7", "/noisy?n=" + ms, "noisy"));
            if (ms % 1000 == 0) {
                lines.add(line(ms + 10, "198.51.100.7", "/calm?n=" + ms, "calm"));
                lines.add(line(ms + 20, "198.51.100.7", "/stranger?n=" + ms, "stranger"));
            }
            if (ms % 2000 == 0) {
                lines.add(line(ms + 30, "198.51.100.7", "/keyless?n=" + ms, ""));
            }
        }
        Path log = Files.write(dir.resolve("api.jsonl"), lines);
        Path tiers = Files.writeString(dir.resolve("tiers.txt"), "free 2 2 nodelay noisy,calm\n");

        List<String> args = new ArrayList<>(List.of("replay", log.toString(), "--key-field", "api_key",
                "--limit-key", "header:X-Api-Key", "--tiers", tiers.toString(), "--address-ceiling", "off",
                "--only", "replay/no-caching", "--back-rate", "1000", "--back-burst", "1000", "--max-lateness", "1000",
                "--no-dashboards", "--results", dir.resolve("results").toString()));
        args.addAll(StackPorts.free().flags());
        int code = run(args);

        assertThat(code).as(cli.err()).isZero();
        assertThat(cli.out()).contains("Keys from field api_key: 132 of 135 requests carry one (3 distinct keys)");
        Path run = runFolder();
        assertThat(Files.readAllLines(run.resolve("replay/schedule.csv")).get(0))
                .isEqualTo("offset_ms,address,method,uri,client,key");
        Path cell = run.resolve("cells/replay-no-caching");
        ReplayBreakdown b = ReplayCellReport.read(cell);
        Map<String, ReplayBreakdown.KeyRow> byKey = b.keys().stream()
                .collect(Collectors.toMap(ReplayBreakdown.KeyRow::key, k -> k));
        assertThat(byKey.get("noisy").requests()).isEqualTo(120);
        // 2 r/s and 3 at once accept about 15 of 120 over 6 s; half is a wide margin for a busy machine.
        assertThat(byKey.get("noisy").rejected()).as("noisy, 20 r/s against 2").isGreaterThan(60);
        assertThat(byKey.get("calm").rejected()).as("calm, from the same address").isZero();
        assertThat(byKey.get("calm").tier()).isEqualTo("free");
        assertThat(byKey.get("stranger").tier()).isEqualTo("anonymous");
        assertThat(byKey.get("stranger").rejected()).isZero();
        Map<String, ReplayBreakdown.TierRow> byTier = b.tiers().stream()
                .collect(Collectors.toMap(ReplayBreakdown.TierRow::tier, t -> t));
        assertThat(byTier.get("free").keys()).isEqualTo(2);
        assertThat(byTier.get("free").keysRejected()).isEqualTo(1);
        assertThat(byTier.get(ReplayBreakdown.NO_KEY).requests()).isEqualTo(3);
        assertThat(byTier.get(ReplayBreakdown.NO_KEY).rejected()).isZero();

        // On the wire: every request left from the one address, and nginx's rejections fell on noisy alone.
        List<JsonNode> front = NginxLog.entries(cell.resolve("nginx/front/logs/access.log"));
        Set<String> addresses = front.stream().map(e -> e.path("client").asText()).collect(Collectors.toSet());
        assertThat(addresses).containsExactly("127.16.0.1");
        Set<String> rejectedPaths = front.stream().filter(e -> e.path("limit_req").asText().equals("REJECTED"))
                .map(e -> e.path("uri").asText().replaceFirst("\\?.*", "")).collect(Collectors.toSet());
        assertThat(rejectedPaths).containsExactly("/noisy");
        assertThat(Files.readString(run.resolve("report.md"))).contains("Keys (sent in the limit key's header)",
                "| noisy | free | 120 |", "| free | 2 | 1 |");
    }
}
