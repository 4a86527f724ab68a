package dev.ratecache.suite.matrix;

import dev.ratecache.jtl.Sample;
import java.util.List;
import java.util.Locale;

/**
 * What a cell of --matrix faults measured of its fault: when it fired, the requests that failed
 * (neither answered nor refused by a limit) and those of them that got no HTTP response at all (lost
 * in flight); for a reload, when the new limit took effect; for a worker killed, whether and when
 * the master started another.
 *
 * @param effectMs     a reload's: from the signal to the start of the first one-second window from
 *                     which every window admits at most {@code newLimit}; null when none did
 * @param beforePeak   a reload's: the most admitted in one second before the signal (the old limit's)
 * @param afterPeak    a reload's: the most admitted in one second from {@code effectMs} on
 * @param newLimit     a reload's: the new limit's rate + burst, the most it admits in any one second
 * @param respawnMs    a worker kill's: from the kill to its successor seen; null when none came
 * @param error        why the fault did not fire, or fired and could not be measured; null when it was
 */
public record FaultFigures(Fault fault, long firedMs, String error, long failed, long lost, Long effectMs,
        long beforePeak, long afterPeak, int newLimit, Long respawnMs) implements CellTrait.Figure {

    /** Windows slide by this much: the precision of when a reload took effect. */
    public static final long STEP_MS = 100;

    static FaultFigures of(FaultInjector.Happened h, List<Sample> samples, int newLimit) {
        List<Sample> sent = samples.stream().filter(s -> !s.clientCacheHit()).toList();
        long failed = sent.stream().filter(s -> !s.success() && !s.rejected()).count();
        long lost = sent.stream().filter(s -> !s.success() && !s.rejected())
                .filter(s -> s.responseCode().isEmpty() || !Character.isDigit(s.responseCode().charAt(0))).count();
        if (h.firedMs() == 0) {
            return new FaultFigures(h.fault(), 0, h.error(), failed, lost, null, 0, 0, newLimit, null);
        }
        Long respawn = h.respawnedPid() != 0 ? h.doneMs() - h.firedMs() : null;
        if (h.fault().kind() != Fault.Kind.RELOAD) {
            return new FaultFigures(h.fault(), h.firedMs(), null, failed, lost, null, 0, 0, newLimit, respawn);
        }
        long[] admitted = sent.stream().filter(Sample::success).mapToLong(Sample::timeStamp).sorted().toArray();
        long first = sent.stream().mapToLong(Sample::timeStamp).min().orElse(0);
        long last = sent.stream().mapToLong(Sample::timeStamp).max().orElse(0);
        long beforePeak = 0;
        for (long t = first; t + 1000 <= h.firedMs(); t += STEP_MS) {
            beforePeak = Math.max(beforePeak, count(admitted, t));
        }
        // The latest window over the new limit: the limit took effect at the step after its start.
        if (h.firedMs() + 1000 > last) {
            return new FaultFigures(h.fault(), h.firedMs(), "the traffic ended less than a second after the signal",
                    failed, lost, null, beforePeak, 0, newLimit, null);
        }
        Long effect = null;
        long afterPeak = 0;
        for (long t = h.firedMs(); t + 1000 <= last; t += STEP_MS) {
            long n = count(admitted, t);
            if (n > newLimit) {
                effect = null;
                afterPeak = 0;
            } else {
                if (effect == null) {
                    effect = t - h.firedMs();
                }
                afterPeak = Math.max(afterPeak, n);
            }
        }
        return new FaultFigures(h.fault(), h.firedMs(), null, failed, lost, effect, beforePeak, afterPeak, newLimit,
                null);
    }

    /** Admissions (start times, sorted) in [from, from + 1 s). */
    private static long count(long[] admitted, long from) {
        return lowerBound(admitted, from + 1000) - lowerBound(admitted, from);
    }

    private static int lowerBound(long[] sorted, long value) {
        int lo = 0;
        int hi = sorted.length;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (sorted[mid] < value) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    public boolean fired() {
        return firedMs != 0;
    }

    /** Whether the master started a worker in place of the one killed. */
    public boolean respawned() {
        return respawnMs != null;
    }

    @Override
    public String terminalLine() {
        if (!fired()) {
            return "fault " + fault.kind() + " did not happen: " + error;
        }
        if (error != null) {
            return fault.kind() + ": " + failed + " failed requests; not measured: " + error;
        }
        return switch (fault.kind()) {
            case RELOAD -> String.format(Locale.ROOT, "reload: %d failed requests; %s (at most %d/s before, %d/s after;"
                    + " the new limit's rate + burst %d)", failed,
                    effectMs == null ? "the new limit never held" : "the new limit held from " + effectMs
                            + " ms after the signal", beforePeak, afterPeak, newLimit);
            case WORKER_KILL -> String.format(Locale.ROOT, "worker kill: %s; %d requests lost in flight (%d failed in all)",
                    respawnMs == null ? "NO WORKER STARTED in its place" : "the master started another in " + respawnMs
                            + " ms", lost, failed);
        };
    }
}
