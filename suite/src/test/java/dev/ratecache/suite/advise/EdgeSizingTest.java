package dev.ratecache.suite.advise;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.ratecache.accesslog.LoggedRequest;
import dev.ratecache.testkit.TestDirs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** advise --sizing's arithmetic on a log and demands made up here, worked by hand. */
class EdgeSizingTest {
    private static final OffsetDateTime T0 = OffsetDateTime.of(2026, 11, 30, 12, 0, 0, 0, ZoneOffset.UTC);

    /** HIT: 20 us at the front; MISS: 100, 200 and 600 us; a rejection 10 us at the front. */
    private static final EdgeSizing.Demands DEMANDS = new EdgeSizing.Demands("nginx", "2 CPUs (Test)", "today", Map.of(
            "hit", Map.of("front", 20.0, "back", 0.0, "origin", 0.0),
            "miss", Map.of("front", 100.0, "back", 200.0, "origin", 600.0),
            "rejection", Map.of("front", 10.0, "back", 0.0, "origin", 0.0)));

    private static LoggedRequest at(long ms, String uri) {
        return new LoggedRequest(ms, T0.plusNanos(ms * 1_000_000), "10.0.0.1", "GET", uri, 200, OptionalLong.empty(),
                OptionalDouble.empty(), OptionalDouble.empty());
    }

    /** A quiet first minute (60 requests), then 6,000 requests in the second: 100 a second, 3 of 4 on /cached. */
    private static List<LoggedRequest> log() {
        List<LoggedRequest> log = new ArrayList<>();
        for (int i = 0; i < 60; i++) {
            log.add(at(i * 1000L, "/cached"));
        }
        for (int i = 0; i < 6000; i++) {
            log.add(at(120_000 + i * 10L, i % 4 == 3 ? "/other?x=" + i : "/cached?v=1"));
        }
        return log;
    }

    /** The advice for /cached: its recommended lifetime of 10 s hits 80 % of its requests. */
    private static List<Advisor.PathAdvice> advice() {
        return List.of(new Advisor.PathAdvice("/cached", 6060, List.of(new Advisor.LifetimeCandidate(1, 40, 1, 1),
                new Advisor.LifetimeCandidate(10, 80, 1, 10)), 10, "flattens"));
    }

    @Test
    void busiestMinuteIsSizedAtItsHitRatioByPathForSeventyPercentOfEachTiersCores() {
        EdgeSizing.Sizing s = EdgeSizing.size(log(), advice(), 10, DEMANDS);

        // 6,000 requests in the minute; 3 of 4 on /cached at 80 % hits: 60 % HIT.
        assertThat(s.minuteRequests()).isEqualTo(6000);
        assertThat(s.hitRatio()).isCloseTo(0.60, within(1e-9));
        EdgeSizing.Case busiest = s.busiest();
        assertThat(busiest.perSec()).isCloseTo(100, within(1e-9));
        // The origin: 40 % misses at 600 us = 240 us a request; 100 a second keep 0.024 cores busy: one core.
        EdgeSizing.TierLoad origin = busiest.tiers().get(2);
        assertThat(origin.micros()).isCloseTo(240, within(1e-9));
        assertThat(origin.busyCores()).isCloseTo(0.024, within(1e-12));
        assertThat(origin.cores()).isEqualTo(1);
        // On one core each, the origin saturates first: at 1 / 240 us = 4,167 requests/s of this mix.
        assertThat(busiest.saturatesFirst()).isEqualTo("origin");
        assertThat(busiest.saturatesAtPerSec()).isCloseTo(1e6 / 240, within(1e-6));
    }

    @Test
    void theCacheOffMakesEveryRequestAMissOnTheSameCores() {
        EdgeSizing.Case off = EdgeSizing.size(log(), advice(), 10, DEMANDS).cases().get(1);

        assertThat(off.tiers().get(0).micros()).isEqualTo(100.0);
        assertThat(off.tiers().get(2).micros()).isEqualTo(600.0);
        assertThat(off.saturatesAtPerSec()).isCloseTo(1e6 / 600, within(1e-6));
    }

    @Test
    void aFloodFromOneKeyIsRefusedAboveTheAdmittedRate() {
        EdgeSizing.Case flood = EdgeSizing.size(log(), advice(), 10, DEMANDS).cases().get(2);

        // 100 a second and the flood's 1,000, of which 990 are refused: 990 / 1,100 = 90 % of all.
        assertThat(flood.perSec()).isCloseTo(1100, within(1e-9));
        double refused = 990.0 / 1100;
        double front = refused * 10 + (1 - refused) * (0.6 * 20 + 0.4 * 100);
        assertThat(flood.tiers().get(0).micros()).isCloseTo(front, within(1e-9));
        assertThat(flood.mix()).startsWith("90 % refused");
    }

    @Test
    void aProductWithoutACacheSendsEveryRequestToTheOrigin() {
        EdgeSizing.Demands traefik = new EdgeSizing.Demands("traefik", "2 CPUs", "today", Map.of(
                "miss", DEMANDS.byClass().get("miss"), "rejection", DEMANDS.byClass().get("rejection")));

        EdgeSizing.Sizing s = EdgeSizing.size(log(), advice(), 10, traefik);

        assertThat(s.hitRatio()).isZero();
        assertThat(EdgeSizing.text(s)).contains("it has no cache, so every request is a MISS");
    }

    @Test
    void demandsJsonIsReadAndAFileWithoutItsClassesIsRefusedInOneLine() throws IOException {
        Path dir = TestDirs.fresh(EdgeSizingTest.class, "read");
        Path good = dir.resolve("demands.json");
        Files.writeString(good, """
                {"product": "nginx", "measured": "2026-11-30T07:00:00Z", "machine": {"cpus": "2", "cpu_model": "X"},
                 "classes": {
                   "hit": {"demands": {"front": {"median": 17.6}, "back": {"median": 0}, "origin": {"median": 0.1}}},
                   "miss": {"demands": {"front": {"median": 97.6}, "back": {"median": 205.7}, "origin": {"median": 342.3}}},
                   "rejection": {"demands": {"front": {"median": 11.7}, "back": {"median": 0}, "origin": {"median": 0}}}}}
                """);
        Path bad = dir.resolve("bad.json");
        Files.writeString(bad, "{\"classes\": {\"hit\": {}}}");

        EdgeSizing.Demands d = EdgeSizing.read(good);

        assertThat(d.byClass().get("miss").get("back")).isEqualTo(205.7);
        assertThat(d.machine()).isEqualTo("2 CPUs (X)");
        assertThatThrownBy(() -> EdgeSizing.read(bad)).hasMessageContaining("has no demands of the miss and rejection"
                + " classes: write it with ./run-tests.sh peak --demands").hasMessageNotContaining("\n");
    }
}
