package dev.ratecache.suite.kinds.faults;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.jtl.Sample;
import dev.ratecache.suite.matrix.Cell;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A fault's figures from the client's samples: when a reload's new limit took hold, the requests
 * a fault failed, and those of them lost in flight (no HTTP response at all).
 */
class FaultFiguresTest {
    private static final long T0 = 1_700_000_000_000L;
    private static final InjectedFault RELOAD = new InjectedFault(InjectedFault.Kind.RELOAD, 2, 10);
    private static final InjectedFault KILL = new InjectedFault(InjectedFault.Kind.WORKER_KILL, 2, 0);

    /** {@code perSecond} admitted and as many refused each second in [fromMs, toMs), evenly spaced. */
    private static List<Sample> flood(long fromMs, long toMs, int perSecond) {
        List<Sample> samples = new ArrayList<>();
        long gap = 1000 / perSecond;
        for (long t = fromMs; t < toMs; t += gap) {
            samples.add(Sample.of(t, 5, "200", true));
            samples.add(Sample.of(t + 1, 1, "429", false));
        }
        return samples;
    }

    @Test
    void aReloadsNewLimitHoldsFromTheFirstWindowNoLaterWindowBreaks() {
        List<Sample> samples = new ArrayList<>(flood(T0, T0 + 3000, 40));
        // Signal at T0 + 3 s; the old workers admit at the old rate for another half second.
        samples.addAll(flood(T0 + 3000, T0 + 3500, 40));
        samples.addAll(flood(T0 + 3500, T0 + 7000, 10));
        FaultFigures f = FaultFigures.of(new FaultInjector.Happened(RELOAD, T0 + 3000, T0 + 3010, 0, 0, null),
                samples, 15);

        assertThat(f.failed()).isZero();
        assertThat(f.beforePeak()).isEqualTo(40);
        // The window from +0.5 s holds 10; the one from +0.4 s still 4 of the old limit's and 10 more.
        assertThat(f.effectMs()).isBetween(200L, 500L);
        assertThat(f.afterPeak()).isLessThanOrEqualTo(15);
        assertThat(f.terminalLine()).contains("0 failed requests", "the new limit held from " + f.effectMs() + " ms");
    }

    @Test
    void aLimitThatNeverChangedNeverHolds() {
        FaultFigures f = FaultFigures.of(new FaultInjector.Happened(RELOAD, T0 + 3000, T0 + 3010, 0, 0, null),
                flood(T0, T0 + 7000, 40), 15);

        assertThat(f.effectMs()).isNull();
        assertThat(f.terminalLine()).contains("the new limit never held");
    }

    @Test
    void aReloadTooCloseToTheTrafficsEndIsNotMeasured() {
        FaultFigures f = FaultFigures.of(new FaultInjector.Happened(RELOAD, T0 + 2500, T0 + 2510, 0, 0, null),
                flood(T0, T0 + 3000, 40), 15);

        assertThat(f.error()).isEqualTo("the traffic ended less than a second after the signal");
        assertThat(f.effectMs()).isNull();
    }

    @Test
    void lostInFlightAreTheFailuresWithNoHttpResponseNotRejectionsNorErrorStatuses() {
        List<Sample> samples = new ArrayList<>(flood(T0, T0 + 4000, 20));
        samples.add(Sample.of(T0 + 2000, 3, "Non HTTP response code: org.apache.http.NoHttpResponseException", false));
        samples.add(Sample.of(T0 + 2001, 3, "Non HTTP response code: java.net.SocketException", false));
        samples.add(Sample.of(T0 + 2002, 3, "502", false));
        FaultFigures f = FaultFigures.of(new FaultInjector.Happened(KILL, T0 + 2000, T0 + 2040, 41, 42, null),
                samples, 0);

        assertThat(f.failed()).isEqualTo(3);
        assertThat(f.lost()).isEqualTo(2);
        assertThat(f.respawnMs()).isEqualTo(40);
        assertThat(f.terminalLine()).isEqualTo(
                "worker kill: the master started another in 40 ms; 2 requests lost in flight (3 failed in all) (failed:"
                + " 502 1, java.net.SocketException 1, org.apache.http.NoHttpResponseException 1)");
    }

    @Test
    void aWorkerNobodyStartedAgainIsSaid() {
        FaultFigures f = FaultFigures.of(new FaultInjector.Happened(KILL, T0 + 2000, 0, 41, 0, null),
                flood(T0, T0 + 4000, 20), 0);

        assertThat(f.respawned()).isFalse();
        assertThat(f.terminalLine()).contains("NO WORKER STARTED");
    }

    @Test
    void anOriginRestartCountsTheStaleAnswersWhileItWasDownAndWhetherTheEdgeWentBack() {
        InjectedFault restart = new InjectedFault(InjectedFault.Kind.ORIGIN_RESTART, 2, 0);
        List<Sample> samples = new ArrayList<>(flood(T0, T0 + 6000, 20));
        samples.add(new Sample(T0 + 2500, 1, "", "200", "OK", "", true, 0, 1, "", "STALE", ""));
        samples.add(new Sample(T0 + 3000, 1, "", "200", "OK", "", true, 0, 1, "", "UPDATING", ""));
        // Stale after the origin is back (stale-while-revalidate's, not the outage's): not counted.
        samples.add(new Sample(T0 + 5500, 1, "", "200", "OK", "", true, 0, 1, "", "STALE", ""));
        FaultInjector.Happened h = new FaultInjector.Happened(restart, T0 + 2000, T0 + 5000, 0, 0, null);

        FaultFigures back = FaultFigures.of(h, samples, 0, 3L);
        assertThat(back.downMs()).isEqualTo(3000);
        assertThat(back.servedStale()).isEqualTo(2);
        assertThat(back.recovered()).isTrue();
        assertThat(back.terminalLine()).isEqualTo("origin restart: down 3000 ms, 2 requests answered stale meanwhile;"
                + " 0 failed; the edge went back to the new origin by itself (3 requests)");

        assertThat(FaultFigures.of(h, samples, 0, 0L).terminalLine()).contains("THE EDGE NEVER WENT BACK");
        FaultFigures notBack = FaultFigures.of(new FaultInjector.Happened(restart, T0 + 2000, 0, 0, 0, null),
                samples, 0, 0L);
        assertThat(notBack.error()).isEqualTo("the origin was not ready again before the cell ended");
    }

    @Test
    void theFaultsMatrixRestartsOnlyTheSuitesOwnOrigin() {
        assertThat(FaultCells.of(40, true)).extracting(Cell::name).containsExactly("faults/reload",
                "faults/worker-kill", "faults/origin-restart", "faults/stale-refused", "faults/cache-full");
        assertThat(FaultCells.of(40, false)).extracting(Cell::name)
                .containsExactly("faults/reload", "faults/worker-kill", "faults/cache-full");
        // A quarter of the front rate: far enough under it that a second tells the two limits apart.
        assertThat(FaultCells.of(40, true).get(0).trait(InjectedFault.class).newRate()).isEqualTo(10);
    }

    @Test
    void aStaleRefusedRestartCountsTheErrorsMeanwhileAndTheFailuresOnceTheOriginWasBack() {
        InjectedFault refused = new InjectedFault(InjectedFault.Kind.STALE_REFUSED, 2, 0);
        List<Sample> samples = new ArrayList<>(flood(T0, T0 + 6000, 20));
        samples.add(new Sample(T0 + 2500, 1, "", "502", "Bad Gateway", "", false, 0, 1, "", "EXPIRED", ""));
        samples.add(new Sample(T0 + 3000, 1, "", "504", "Gateway Time-out", "", false, 0, 1, "", "", ""));
        // A rejection meanwhile is the limit's, not the outage's error.
        samples.add(new Sample(T0 + 3100, 1, "", "503", "", "", false, 0, 1, "", "", ""));
        FaultInjector.Happened h = new FaultInjector.Happened(refused, T0 + 2000, T0 + 5000, 0, 0, null);

        FaultFigures f = FaultFigures.of(h, samples, 0, 4L);
        assertThat(f.servedStale()).isZero();
        assertThat(f.errorsMeanwhile()).isEqualTo(2);
        assertThat(f.failedAfter()).isZero();
        assertThat(f.terminalLine()).isEqualTo("stale refused: down 3000 ms, 0 requests answered stale meanwhile, 2"
                + " with an error (5xx); 0 failed after it was back; the edge went back to the new origin by itself"
                + " (4 requests) (failed: 502 Bad Gateway 1, 504 Gateway Time-out 1)");

        samples.add(new Sample(T0 + 5200, 1, "", "502", "Bad Gateway", "", false, 0, 1, "", "EXPIRED", ""));
        samples.add(new Sample(T0 + 4000, 1, "", "200", "OK", "", true, 0, 1, "", "STALE", ""));
        FaultFigures broken = FaultFigures.of(h, samples, 0, 4L);
        assertThat(broken.failedAfter()).isEqualTo(1);
        assertThat(broken.terminalLine()).contains("1 requests answered STALE THOUGH NOT PERMITTED");
    }

    @Test
    void aFullCacheCountsWhatItStoredWhatTheManagerEvictedAndWhatTheEdgeSaidOnceFull() {
        InjectedFault full = new InjectedFault(InjectedFault.Kind.CACHE_FULL, 0, 0);
        List<Sample> samples = new ArrayList<>();
        for (long t = T0; t < T0 + 4000; t += 25) {
            samples.add(new Sample(t, 1, "", "200", "OK", "", true, 0, 1, "", "MISS", ""));
            samples.add(new Sample(t + 1, 1, "", "429", "", "", false, 0, 1, "", "", ""));
        }
        samples.add(new Sample(T0 + 3000, 1, "", "200", "OK", "", true, 0, 1, "", "", ""));
        FaultInjector.Happened h = new FaultInjector.Happened(full, T0 + 1500, T0 + 1500, 0, 0, null,
                new FaultInjector.CacheSeen(256 * 1024, 400 * 4096, 63, T0 + 3500));

        FaultFigures.CacheFill c = FaultFigures.of(h, samples, 0).cacheFill();
        assertThat(c.fullAfterMs()).isEqualTo(1500);
        assertThat(c.stored()).isEqualTo(160);
        assertThat(c.evicted()).isEqualTo(97);
        assertThat(c.evictedAfterMs()).isEqualTo(2000);
        // 100 MISS from T0 + 1.5 s on, and the one answer without the header.
        assertThat(c.statusesAfter()).containsExactly(Map.entry("MISS", 100L), Map.entry("none", 1L));
        assertThat(c.unsaid()).isEqualTo(1);
        assertThat(FaultFigures.of(h, samples, 0).terminalLine()).isEqualTo("cache full: max_size 256 KB reached"
                + " 1500 ms after the first request; the cache manager first evicted 2000 ms later; 160 entries stored,"
                + " 97 evicted, 63 held at the end (peak 1600 KB); 0 failed; answers once full: MISS 100, none 1");
    }

    @Test
    void requestsJMeterAbortedItselfAreNotTheEdgesFailuresWhenEverTheyEnded() {
        InjectedFault full = new InjectedFault(InjectedFault.Kind.CACHE_FULL, 0, 0);
        List<Sample> samples = new ArrayList<>();
        for (long t = T0; t < T0 + 4000; t += 25) {
            samples.add(new Sample(t, 1, "", "200", "OK", "", true, 0, 1, "", "MISS", ""));
        }
        String closed = "Non HTTP response message: Socket closed";
        // A late backlog cut when the run ended, and one JMeter took seconds to stop: neither counted.
        samples.add(new Sample(T0 + 3950, 40, "", "Non HTTP response code: java.net.SocketException", closed, "", false,
                0, 1, "", "", ""));
        samples.add(new Sample(T0 + 3960, 30, "", "Non HTTP response code: org.apache.http.impl.execchain.RequestAbortedException",
                "Non HTTP response message: Request aborted", "", false, 0, 1, "", "", ""));
        samples.add(new Sample(T0 + 1000, 40, "", "Non HTTP response code: java.net.SocketException", closed, "", false,
                0, 1, "", "", ""));
        // A reset and an error status are the edge's doing, at the end or not: counted, and said what they were.
        samples.add(new Sample(T0 + 3950, 40, "", "Non HTTP response code: java.net.SocketException",
                "Non HTTP response message: Connection reset", "", false, 0, 1, "", "", ""));
        samples.add(new Sample(T0 + 2000, 40, "", "502", "Bad Gateway", "", false, 0, 1, "", "", ""));
        FaultInjector.Happened h = new FaultInjector.Happened(full, T0 + 1500, T0 + 1500, 0, 0, null,
                new FaultInjector.CacheSeen(256 * 1024, 400 * 4096, 63, T0 + 3500));

        FaultFigures f = FaultFigures.of(h, samples, 0);
        assertThat(f.failed()).isEqualTo(2);
        assertThat(f.lost()).isEqualTo(1);
        assertThat(f.terminalLine()).contains("2 failed;").endsWith("(failed: 502 Bad Gateway 1, Connection reset 1)");
    }

    @Test
    void theCacheFolderIsCountedInWholeBlocksAsNginxCountsMaxSize(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws Exception {
        assertThat(FaultInjector.cacheBytes(dir.resolve("not-yet"))).isZero();
        java.nio.file.Files.createDirectories(dir.resolve("1/ab"));
        java.nio.file.Files.write(dir.resolve("1/ab/one"), new byte[600]);
        java.nio.file.Files.write(dir.resolve("two"), new byte[5000]);
        assertThat(FaultInjector.cacheBytes(dir)).isEqualTo(3 * FaultInjector.BLOCK);
    }

    @Test
    void onlyTheCacheFullCellHasASmallCache() {
        var switches = new dev.ratecache.suite.switches.StackSwitches();
        List<Cell> cells = FaultCells.of(40, true);
        assertThat(cells).allSatisfy(c -> assertThat(c.apply(switches).cacheSize())
                .isEqualTo(c.name().equals("faults/cache-full") ? InjectedFault.CACHE_FULL_SIZE : "100m"));
        assertThat(cells.get(4).properties()).containsEntry("distinct", "true");
        assertThat(cells.get(3).properties()).containsEntry("path", InjectedFault.NO_STALE_PATH);
    }

    @Test
    void theRedisCellIsOnlyInARunWithTheSuitesOriginsAppCacheInRedis() {
        assertThat(FaultCells.of(40, true, true)).extracting(Cell::name).endsWith("faults/redis-restart");
        Cell redis = FaultCells.of(40, true, true).get(5);
        assertThat(redis.appCache()).isTrue();
        assertThat(redis.serverCache()).as("past the edge cache, to the app cache").isFalse();
        assertThat(FaultCells.of(40, true, false)).extracting(Cell::name).doesNotContain("faults/redis-restart");
        assertThat(FaultCells.of(40, false, true)).extracting(Cell::name).doesNotContain("faults/redis-restart");
    }

    @Test
    void aRedisRestartSaysHowLongItWasDownAndWhetherTheOriginWentBackToIt() {
        InjectedFault restart = new InjectedFault(InjectedFault.Kind.REDIS_RESTART, 2, 0);
        FaultInjector.Happened h = new FaultInjector.Happened(restart, T0 + 2000, T0 + 2070, 0, 0, null);
        FaultFigures f = FaultFigures.of(h, flood(T0, T0 + 5000, 20), 0, 200L, 66L, 8L);

        assertThat(f.downMs()).isEqualTo(70);
        assertThat(f.backOnRedis()).isTrue();
        assertThat(f.terminalLine()).isEqualTo("redis restart: down 70 ms, 0 failed; the origin counted 8 app-cache"
                + " errors (each answered from its database); the origin went back to the new Redis by itself (66 lookups)");
        assertThat(FaultFigures.of(h, flood(T0, T0 + 5000, 20), 0, 200L, 0L, 8L).terminalLine())
                .contains("THE ORIGIN NEVER WENT BACK");
        assertThat(FaultFigures.of(new FaultInjector.Happened(restart, T0 + 2000, 0, 0, 0, null),
                flood(T0, T0 + 5000, 20), 0, 200L, null, 8L).error()).startsWith("redis-server was not answering");
    }

    @Test
    void aFaultThatNeverFiredSaysWhy() {
        FaultFigures f = FaultFigures.of(new FaultInjector.Happened(KILL, 0, 0, 0, 0, "the traffic ended first"),
                flood(T0, T0 + 1000, 20), 0);

        assertThat(f.fired()).isFalse();
        assertThat(f.terminalLine()).isEqualTo("fault worker-kill did not happen: the traffic ended first");
    }
}
