package dev.ratecache.suite.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ratecache.jtl.Jtl;
import dev.ratecache.jtl.Sample;
import dev.ratecache.suite.kinds.faults.FaultFigures;
import dev.ratecache.suite.kinds.faults.FaultPromise;
import dev.ratecache.suite.kinds.faults.InjectedFault;
import dev.ratecache.testkit.LongTest;
import dev.ratecache.testkit.StackTest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * --matrix faults under the quick profile, on real nginx, the origin and JMeter: the front tier
 * reloaded mid-flood with a quarter of its limit fails no request and holds the new limit; one of
 * its workers killed mid-flood is started again by its master, and the requests it held are counted;
 * the origin killed and started again mid-flood fails nothing behind the edge's cache, and the edge
 * goes back to the new origin by itself; on a path that permits no stale, the edge answers errors
 * instead, never stale, and recovers as well; a small edge cache filled by a distinct URL per request
 * keeps answering, and its cache manager evicts. One run for all of them. The Redis cell (a run with
 * --app-cache redis) is left out: another 8 s of the test lane for what CachesMatrixTest and
 * FleetMatrixStackTest already show of Redis killed mid-cell; its figures and promise are
 * FaultFiguresTest's and FaultPromiseTest's, and the committed faults run has it.
 */
@StackTest
@LongTest
class FaultsMatrixStackTest {
    private static MatrixRun matrix;

    @BeforeAll
    static void runTheFaultCells() throws Exception {
        matrix = MatrixRun.of(FaultsMatrixStackTest.class, "faults", List.of("faults/reload", "faults/worker-kill",
                "faults/origin-restart", "faults/stale-refused", "faults/cache-full"));
    }

    private static JsonNode fault(String cell) {
        JsonNode c = matrix.cells.get(cell);
        assertThat(c.get("status").asText()).as(cell + "\n" + matrix.output()).isEqualTo("ok");
        assertThat(c.get("fault")).as(cell + " has fault figures\n" + matrix.output()).isNotNull();
        return c.get("fault");
    }

    private static JsonNode check(String cell, InjectedFault.Kind kind) {
        return matrix.checks.get(FaultPromise.text(cell, kind));
    }

    @Test
    void noFaultCellIsSetBesideASimulationThatHasNoFault() {
        assertThat(matrix.cells.values()).allSatisfy(c -> {
            assertThat(c.path("prediction").path("predicted").asBoolean()).as(c.get("name").asText()).isFalse();
            assertThat(c.path("prediction").path("gap").asText()).contains("a fault changes the tiers mid-cell");
        });
    }

    @Test
    void aReloadFailsNoRequestAndItsNewLimitHolds() throws Exception {
        JsonNode f = fault("faults/reload");
        assertThat(check("faults/reload", InjectedFault.Kind.RELOAD).get("passed").asBoolean()).as(matrix.output()).isTrue();
        assertThat(f.get("failed").asLong()).isZero();
        // 40 r/s, burst 5, before; 10 r/s after: rate + burst 15 in any second from when it held.
        assertThat(f.get("before_peak").asLong()).as(matrix.output()).isGreaterThan(f.get("new_limit").asLong());
        assertThat(f.get("after_peak").asLong()).isPositive().isLessThanOrEqualTo(f.get("new_limit").asLong());
        assertThat(f.get("effect_ms").isNumber()).isTrue();
        // The master took the new config: the front's config is the reloaded one, and its log says it was signalled.
        Path front = matrix.run.resolve("cells/faults-reload/nginx/front");
        assertThat(Files.readString(front.resolve("conf/snippets/shared/address-limit-zone.conf"))).contains("rate=10r/s");
        assertThat(Files.readString(front.resolve("logs/error.log"))).contains("signal process started");
        assertThat(matrix.output()).contains("reload: 0 failed requests; the new limit held from");
    }

    @Test
    void aKilledWorkerIsStartedAgainAndTheRequestsItHeldAreCounted() throws Exception {
        JsonNode f = fault("faults/worker-kill");
        assertThat(check("faults/worker-kill", InjectedFault.Kind.WORKER_KILL).get("passed").asBoolean()).as(matrix.output())
                .isTrue();
        // Wide: a loaded machine's master may take a while to be scheduled; the deadline is 10 s.
        assertThat(f.get("respawn_ms").asLong()).as(matrix.output()).isBetween(0L, 10_000L);
        // Lost: exactly the client's samples that got no HTTP response, however many the dead worker held, less
        // what JMeter aborted itself when its run ended (a busy machine's late backlog): those are its own.
        List<Sample> samples = Jtl.read(matrix.run.resolve("cells/faults-worker-kill/jmeter/results.jtl"));
        List<Sample> noResponse = samples.stream().filter(s -> !s.success() && !s.rejected())
                .filter(s -> !Character.isDigit(s.responseCode().charAt(0))).toList();
        List<Sample> kept = FaultFigures.withoutJMetersOwnAborts(samples);
        List<Sample> cutAtTheEnd = noResponse.stream().filter(s -> !kept.contains(s)).toList();
        assertThat(f.get("lost").asLong()).isEqualTo(noResponse.size() - cutAtTheEnd.size());
        assertThat(matrix.output()).contains("requests lost in flight");
    }

    @Test
    void theEdgeAnswersStaleWhileTheOriginIsDownAndGoesBackToTheNewOne() throws Exception {
        JsonNode f = fault("faults/origin-restart");
        assertThat(check("faults/origin-restart", InjectedFault.Kind.ORIGIN_RESTART).get("passed").asBoolean())
                .as(matrix.output()).isTrue();
        assertThat(f.get("failed").asLong()).isZero();
        // /hare is fresh for 1 s in the quick profile: an outage of seconds outlives it, so some answers were stale.
        assertThat(f.get("down_ms").asLong()).as(matrix.output()).isGreaterThan(1000);
        assertThat(f.get("served_stale").asLong()).isPositive();
        assertThat(f.get("origin_after").asLong()).isPositive();
        // Two processes, neither of which ran the whole cell: no origin CPU rather than a negative one.
        assertThat(matrix.cells.get("faults/origin-restart").path("metrics").path("cpu_origin_s").path("median")
                .isNumber()).as(matrix.output()).isFalse();
        // Ready three times in the run's origin log: at the run's start, and after each restart cell started it again.
        String log = Files.readString(matrix.run.resolve("origin.log"));
        assertThat(log.split("origin ready in", -1).length - 1).as(log).isEqualTo(3);
    }

    @Test
    void whereNoStaleIsPermittedTheEdgeAnswersErrorsMeanwhileNeverStaleAndRecovers() throws Exception {
        JsonNode f = fault("faults/stale-refused");
        assertThat(check("faults/stale-refused", InjectedFault.Kind.STALE_REFUSED).get("passed").asBoolean())
                .as(matrix.output()).isTrue();
        assertThat(f.get("served_stale").asLong()).isZero();
        // /hare-no-stale is fresh for 1 s: an outage of seconds has expired entries asked for, each answered 5xx.
        assertThat(f.get("down_ms").asLong()).as(matrix.output()).isGreaterThan(1000);
        assertThat(f.get("errors_meanwhile").asLong()).isPositive();
        assertThat(f.get("failed_after").asLong()).isZero();
        assertThat(f.get("origin_after").asLong()).isPositive();
        // The origin's own Cache-Control for the path, as the edge stored it: no stale permission in it.
        List<Sample> samples = Jtl.read(matrix.run.resolve("cells/faults-stale-refused/jmeter/results.jtl"));
        assertThat(samples).noneMatch(s -> s.cacheStatus().equals("STALE") || s.cacheStatus().equals("UPDATING"));
        assertThat(Files.readString(matrix.run.resolve("origin.log"))).contains("hare-no-stale 100 ms (public, max-age=1)");
    }

    @Test
    void aFullCacheKeepsAnsweringAndItsManagerEvicts() throws Exception {
        JsonNode f = fault("faults/cache-full");
        assertThat(check("faults/cache-full", InjectedFault.Kind.CACHE_FULL).get("passed").asBoolean()).as(matrix.output())
                .isTrue();
        JsonNode cache = f.get("cache");
        assertThat(f.get("failed").asLong()).isZero();
        assertThat(cache.get("max_bytes").asLong()).isEqualTo(256 * 1024);
        assertThat(cache.get("peak_bytes").asLong()).as(matrix.output()).isGreaterThanOrEqualTo(256 * 1024);
        assertThat(cache.get("evicted").asLong()).isPositive();
        assertThat(cache.get("held").asLong()).isLessThan(cache.get("stored").asLong());
        // Every URL was new: every answer once full was a MISS, and said so.
        assertThat(cache.get("statuses_after").get("MISS").asLong()).isPositive();
        assertThat(cache.get("statuses_after").has("none")).isFalse();
        // The small cache was that cell's alone.
        assertThat(Files.readString(matrix.run.resolve("cells/faults-cache-full/nginx/front/conf/snippets/front/"
                + "cache-zone.conf"))).contains("max_size=256k");
        assertThat(Files.readString(matrix.run.resolve("cells/faults-origin-restart/nginx/front/conf/snippets/front/"
                + "cache-zone.conf"))).contains("max_size=100m");
    }

    @Test
    void thePromisesAreTheRunsChecksAndTheReportHasTheTable() throws Exception {
        assertThat(matrix.exitCode).as(matrix.output()).isZero();
        assertThat(Files.readString(matrix.run.resolve("checks.xml")))
                .contains(FaultPromise.text("faults/reload", InjectedFault.Kind.RELOAD),
                        FaultPromise.text("faults/worker-kill", InjectedFault.Kind.WORKER_KILL),
                        FaultPromise.text("faults/stale-refused", InjectedFault.Kind.STALE_REFUSED),
                        FaultPromise.text("faults/cache-full", InjectedFault.Kind.CACHE_FULL));
        assertThat(Files.readString(matrix.run.resolve("report.md"))).contains("## Faults: the edge while things go wrong",
                "| faults/worker-kill |");
    }
}
