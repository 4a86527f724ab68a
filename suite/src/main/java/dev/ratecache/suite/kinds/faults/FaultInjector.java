package dev.ratecache.suite.kinds.faults;

import dev.ratecache.proc.Poll;
import dev.ratecache.suite.matrix.CellTrait;
import dev.ratecache.suite.origin.OriginCounters;
import dev.ratecache.suite.spec.StackSpec;
import dev.ratecache.suite.stack.Stack;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * Makes a cell's {@link InjectedFault} happen to its own front tier while the generator runs: on a thread of
 * its own, once the tier's stub_status counts traffic, {@link InjectedFault#atSeconds()} later. The access
 * log would say when the first request came only a flush (1 s) late.
 */
final class FaultInjector implements CellTrait.Beside {
    /** How long the master may take to start a worker in place of a killed one before the cell says it did not. */
    static final Duration RESPAWN_DEADLINE = Duration.ofSeconds(10);
    /** Longer than the origin's own start-up limit, which fails the start by itself. */
    private static final Duration RESTART_DEADLINE = Duration.ofSeconds(150);

    /**
     * What happened, in epoch milliseconds; {@code firedMs} 0 when the fault never fired (the cell's
     * traffic ended first, or {@code error} says why).
     *
     * @param doneMs      the reload's signal sent, the killed worker's successor seen, or the origin started
     *                    again and ready; 0 when not
     * @param killedPid   the worker killed; 0 for a reload
     * @param respawnedPid the worker the master started in its place; 0 when none came within the deadline
     */
    record Happened(InjectedFault fault, long firedMs, long doneMs, long killedPid, long respawnedPid, String error,
            CacheSeen cache) {
        Happened(InjectedFault fault, long firedMs, long doneMs, long killedPid, long respawnedPid, String error) {
            this(fault, firedMs, doneMs, killedPid, respawnedPid, error, null);
        }
    }

    /**
     * The front tier's cache folder as a cache-full cell saw it, counted as nginx counts its max_size
     * (each file in whole blocks of {@link #BLOCK} bytes).
     *
     * @param maxBytes  the cell's max_size
     * @param peakBytes the most the folder held at any poll
     * @param held      the entries (files) in it once the traffic ended
     * @param evictedMs when the folder first held less than at the poll before, once full: the cache
     *                  manager's first eviction (epoch ms); 0 when none was seen
     */
    record CacheSeen(long maxBytes, long peakBytes, long held, long evictedMs) {}

    /**
     * How long past the traffic a cache-full cell waits for the cache manager's first eviction: nginx
     * wakes it at most 10 s apart (ngx_http_file_cache_expire caps its wait at 10 s), and max_size is
     * enforced only then.
     */
    static final Duration MANAGER_WAKE = Duration.ofSeconds(11);

    /** The file system's block (4 KB here): nginx counts a cache file's size in whole blocks. */
    static final long BLOCK = 4096;

    private final InjectedFault fault;
    private final Stack stack;
    private final StackSpec reloaded;
    private final CellTrait.Restarts origin;
    private final int statusPort;
    private final ScheduledThreadPoolExecutor thread = new ScheduledThreadPoolExecutor(1, r -> {
        Thread t = new Thread(r, "fault");
        t.setDaemon(true);
        return t;
    });
    private volatile Happened happened;
    private int polls;
    /** A cache-full cell's folder and size: its fill is polled from the first request on. */
    private final Path cacheDir;
    private final long maxBytes;
    private volatile long peakBytes;
    private volatile long lastBytes;
    private volatile long evictedMs;

    /**
     * @param reloaded for a reload, the spec the front tier reloads with; null otherwise
     * @param origin   the suite's origin, for a fault that kills it; null for a user's
     */
    FaultInjector(InjectedFault fault, Stack stack, StackSpec reloaded, int statusPort, CellTrait.Restarts origin) {
        this.fault = fault;
        this.origin = origin;
        this.stack = stack;
        this.reloaded = reloaded;
        this.statusPort = statusPort;
        this.happened = new Happened(fault, 0, 0, 0, 0, fault.kind() == InjectedFault.Kind.CACHE_FULL
                ? "the cell's traffic ended before the cache reached its max_size"
                : "the cell's traffic ended before the fault's moment");
        this.cacheDir = fault.kind() == InjectedFault.Kind.CACHE_FULL ? stack.frontCacheFolder()
                .orElseThrow(() -> new IllegalStateException("a cache-full cell needs an edge whose cache is on disk"))
                : null;
        this.maxBytes = stack.spec().cache().bytes();
        // At the traffic's end a fault not yet fired never fires, and one under way finishes (see close).
        thread.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
        thread.setContinueExistingPeriodicTasksAfterShutdownPolicy(false);
    }

    /** Starts watching for the traffic once the generator has started; the fault fires on its own thread. */
    @Override
    public void trafficStarted() {
        thread.scheduleWithFixedDelay(this::untilTraffic, 0, 20, TimeUnit.MILLISECONDS);
    }

    private void untilTraffic() {
        // Each poll is a request of its own on the same counter; a few more than them is the cell's.
        long requests = requests();
        polls++;
        if (requests > polls + 2) {
            if (cacheDir != null) {
                thread.scheduleWithFixedDelay(this::untilFull, 0, 20, TimeUnit.MILLISECONDS);
            } else {
                thread.schedule(this::fire, Math.round(fault.atSeconds() * 1000), TimeUnit.MILLISECONDS);
            }
            throw new Stop();
        }
    }

    /** A cache-full cell's poll: the moment its folder first reached max_size, and the most it held. */
    private void untilFull() {
        long bytes = cacheBytes(cacheDir);
        long now = System.currentTimeMillis();
        peakBytes = Math.max(peakBytes, bytes);
        if (happened.firedMs() != 0 && evictedMs == 0 && bytes < lastBytes) {
            evictedMs = now;
        }
        lastBytes = bytes;
        if (bytes >= maxBytes && happened.firedMs() == 0) {
            happened = new Happened(fault, now, now, 0, 0, null, new CacheSeen(maxBytes, peakBytes, 0, 0));
        }
    }

    /** What nginx's cache manager counts against max_size: each file in whole blocks. */
    static long cacheBytes(Path dir) {
        return cacheFiles(dir).stream().mapToLong(size -> (size + BLOCK - 1) / BLOCK * BLOCK).sum();
    }

    /** The sizes of the cache folder's entries (files), none while it does not exist yet. */
    private static List<Long> cacheFiles(Path dir) {
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (var files = Files.walk(dir)) {
            return files.filter(Files::isRegularFile).map(f -> {
                try {
                    return Files.size(f);
                } catch (IOException evicted) {
                    // The cache manager removed it between the listing and its size.
                    return 0L;
                }
            }).filter(size -> size > 0).toList();
        } catch (IOException | UncheckedIOException changing) {
            // A folder the cache manager emptied under the walk: the next poll counts again.
            return List.of();
        }
    }

    /** Thrown to end the fixed-delay poll: an executor's only way to cancel a task from inside it. */
    private static final class Stop extends RuntimeException {
        Stop() {
            super(null, null, false, false);
        }
    }

    /** The tier's requests so far; 0 for a missed reading, which the poll takes again. */
    private long requests() {
        return dev.ratecache.suite.nginx.StubStatus.fetch(statusPort).map(
                dev.ratecache.suite.nginx.StubStatus::requests).orElse(0L);
    }

    private void fire() {
        long fired = System.currentTimeMillis();
        try {
            switch (fault.kind()) {
                case RELOAD -> {
                    // The moment is the signal's, after the config's render and check: the windows are timed from it.
                    fired = stack.reloadFront(reloaded);
                    happened = new Happened(fault, fired, System.currentTimeMillis(), 0, 0, null);
                }
                case CACHE_FULL -> throw new IllegalStateException("a cache-full cell is polled, not fired");
                case REDIS_RESTART -> {
                    long[] killed = new long[1];
                    origin.restartRedis(at -> {
                        killed[0] = at;
                        happened = new Happened(fault, at, 0, 0, 0, null);
                    });
                    happened = new Happened(fault, killed[0], System.currentTimeMillis(), 0, 0, null);
                }
                case ORIGIN_RESTART, STALE_REFUSED -> {
                    long[] killed = new long[1];
                    origin.restartOrigin(at -> {
                        killed[0] = at;
                        happened = new Happened(fault, at, 0, 0, 0, null);
                    });
                    happened = new Happened(fault, killed[0], System.currentTimeMillis(), 0, 0, null);
                }
                case WORKER_KILL -> {
                    List<Long> before = stack.frontWorkers();
                    if (before.isEmpty()) {
                        happened = new Happened(fault, 0, 0, 0, 0, "the front tier had no worker to kill");
                        return;
                    }
                    // The worst case: the worker holding the most connections (descriptors), so the most in flight.
                    long victim = before.stream().max(Comparator.comparingLong(FaultInjector::descriptors))
                            .orElseThrow();
                    fired = System.currentTimeMillis();
                    ProcessHandle.of(victim).ifPresent(ProcessHandle::destroyForcibly);
                    happened = new Happened(fault, fired, 0, victim, 0, null);
                    long deadline = fired + RESPAWN_DEADLINE.toMillis();
                    while (System.currentTimeMillis() < deadline) {
                        long successor = stack.frontWorkers().stream().filter(w -> !before.contains(w)).findFirst()
                                .orElse(0L);
                        if (successor != 0) {
                            happened = new Happened(fault, fired, System.currentTimeMillis(), victim, successor, null);
                            return;
                        }
                        Poll.pause(10);
                    }
                }
            }
        } catch (IOException | RuntimeException e) {
            happened = new Happened(fault, 0, 0, 0, 0, String.valueOf(e.getMessage()).lines().findFirst().orElse(""));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static long descriptors(long pid) {
        try (var fds = Files.list(Path.of("/proc", String.valueOf(pid), "fd"))) {
            return fds.count();
        } catch (IOException | UncheckedIOException gone) {
            return 0;
        }
    }

    /**
     * Stops the thread: a fault not yet fired stays unfired; one under way is waited for, so that an
     * origin being started again is ready (or failed) before the cell looks at it.
     */
    @Override
    public void close() {
        thread.shutdown();
        try {
            thread.awaitTermination(RESTART_DEADLINE.toSeconds(), TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (cacheDir != null && happened.firedMs() != 0) {
            // A manager that has not woken yet in the cell's seconds will within MANAGER_WAKE: its eviction is the promise.
            long deadline = System.currentTimeMillis() + MANAGER_WAKE.toMillis();
            while (evictedMs == 0 && System.currentTimeMillis() < deadline) {
                Poll.pause(100);
                untilFull();
            }
            Happened h = happened;
            happened = new Happened(h.fault(), h.firedMs(), h.doneMs(), 0, 0, null,
                    new CacheSeen(maxBytes, Math.max(peakBytes, cacheBytes(cacheDir)), cacheFiles(cacheDir).size(),
                            evictedMs));
        }
    }

    /** A reload's new front limit, rate + burst: the most it admits in any one second; 0 for other faults. */
    int newLimit() {
        return reloaded == null ? 0 : reloaded.front().map(l -> l.rate() + l.burst()).orElse(0);
    }

    /** Whether the fault killed the origin and the new one is ready: the cell's counters are the new one's. */
    @Override
    public boolean restartedOrigin() {
        Happened h = happened;
        return (h.fault().kind() == InjectedFault.Kind.ORIGIN_RESTART || h.fault().kind() == InjectedFault.Kind.STALE_REFUSED)
                && h.doneMs() != 0;
    }

    Happened happened() {
        return happened;
    }

    /** What the fault did to the cell's traffic, with what the origin and Redis running at its end counted. */
    @Override
    public FaultFigures figure(CellTrait.Ran ran) {
        OriginCounters counters = ran.counters();
        return FaultFigures.of(happened, ran.samples(), newLimit(), counters == null ? null : counters.total().requests(),
                ran.redisLookups(), counters == null || counters.items() == null || counters.items().appCache() == null
                        ? null : counters.items().appCache().errors());
    }
}
