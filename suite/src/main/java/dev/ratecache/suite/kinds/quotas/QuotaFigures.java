package dev.ratecache.suite.kinds.quotas;

import dev.ratecache.jtl.Sample;
import dev.ratecache.model.QuotaSpec;
import dev.ratecache.stats.BusiestWindow;
import dev.ratecache.suite.edge.EdgeEvent;
import dev.ratecache.suite.matrix.Cell;
import dev.ratecache.suite.matrix.CellTrait;
import dev.ratecache.suite.matrix.TierFigures;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * A cell of --matrix quotas as the edges counted it: per key, what its quota admitted and rejected in
 * each window, when it ran out, and the RateLimit remaining the client was told over time. Counted
 * from the edges' logs, where each request the quota decided carries Redis's clock at the count
 * ({@code quota_at}), so that a run's windows are the script's own, exactly, whichever edge asked;
 * and replayed through the model's quota (model/), which must decide every request as Redis did.
 *
 * @param mode           the window mode, as --quota-window says it
 * @param limit          N, the requests a window allows
 * @param windowMs       W
 * @param startMs        the first request the quota decided, on Redis's clock
 * @param keys           per key, in the order the cell names them
 * @param fallbacks      requests an edge counted alone because Redis failed or was slow
 * @param modelAgrees    of the decided requests, those the model replaying them in Redis's order decided alike
 * @param modelDecisions the requests Redis decided; those an edge decided alone are replayed too, as Redis most
 *                       often counted them (it answered late), but not compared
 */
public record QuotaFigures(String mode, long limit, long windowMs, long startMs, List<KeyFigures> keys, long fallbacks,
        long modelAgrees, long modelDecisions) implements CellTrait.Figure {

    public QuotaFigures {
        keys = List.copyOf(keys);
    }

    /**
     * One key's run.
     *
     * @param sent            requests the client sent
     * @param admitted        of them, admitted by the quota
     * @param quotaRejected   rejected by the quota: 429 quota-exceeded
     * @param otherRejected   rejected before the quota (the burst limit, a missing key): 429 or 503 of a limit
     * @param windows         each fixed (or calendar) window it sent in, in time order
     * @param mostInWindow    the most admitted in any W-long stretch (a sliding window over Redis's clock):
     *                        at most 2N - 1 under sliding's estimate, 2N across two fixed windows
     * @param seconds         per second of the run from {@link #startMs} that the quota decided any of its
     *                        requests in: what it admitted, rejected, and the least RateLimit r it told the key
     * @param predicted       what the model's quota says of the key's requests at the times the client sent them
     */
    public record KeyFigures(String key, long sent, long admitted, long quotaRejected, long otherRejected,
            List<Window> windows, long mostInWindow, Map<Long, Second> seconds, Predicted predicted) {
        public KeyFigures {
            windows = List.copyOf(windows);
            seconds = java.util.Collections.unmodifiableMap(new TreeMap<>(seconds));
        }

        /** The window that admitted the most. */
        public Window fullest() {
            return windows.stream().max(Comparator.comparingLong(Window::admitted)).orElse(null);
        }

        /** When it first ran out, in seconds into its window; -1 when it never did. */
        public double firstExhaustedAfterSeconds() {
            return windows.stream().filter(w -> w.exhaustedMs() >= 0).findFirst()
                    .map(w -> (w.exhaustedMs() - w.startMs()) / 1000.0).orElse(-1.0);
        }
    }

    /**
     * One key's fixed (or calendar) window.
     *
     * @param startMs       its start, on Redis's clock
     * @param admitted      requests the quota admitted in it
     * @param rejected      requests it rejected in it
     * @param exhaustedMs   its first rejection; -1 when none
     * @param admittedAfter admitted after that first rejection (sliding: its estimate decays as the window goes on)
     * @param fellBack      of the admitted, those an edge admitted on its own share while Redis failed or was slow
     */
    public record Window(long startMs, long admitted, long rejected, long exhaustedMs, long admittedAfter,
            long fellBack) {
        /** Admitted by Redis's count: N at most, exactly. */
        public long counted() {
            return admitted - fellBack;
        }
    }

    /**
     * What the model (model/'s quota, deciding as the Redis script does) says of one key's requests,
     * taken at the times the client sent them: the plan's schedule as it was really sent (JMeter's
     * open model sends a start-up backlog at once; the library paces), the round trip to Redis
     * being a millisecond or two that moves only a request on a window's very edge.
     *
     * @param admitted              requests its quota admits
     * @param rejected              requests its quota rejects
     * @param firstExhaustedSeconds when it first runs out, in seconds into its window; -1 when it never does
     */
    public record Predicted(long admitted, long rejected, double firstExhaustedSeconds) {
        /**
         * Whether a measured figure is as the model says: within 2 % of the key's requests or 2
         * requests, whichever is more, for the requests on a window's edge.
         */
        public static boolean close(long measured, long predicted, long requests) {
            return Math.abs(measured - predicted) <= Math.max(2, Math.round(0.02 * requests));
        }
    }

    /** The model's figures for one key's requests sent at {@code sentAtMs} (the client's clock). */
    static Predicted predicted(QuotaSpec spec, String key, List<Long> sentAtMs) {
        List<dev.ratecache.model.Arrival> arrivals = sentAtMs.stream()
                .map(t -> new dev.ratecache.model.Arrival(t, key, "/")).toList();
        long admitted = 0;
        long rejected = 0;
        double first = -1;
        for (dev.ratecache.model.QuotaLimiter.KeyWindow w : dev.ratecache.model.QuotaLimiter.windows(spec, arrivals)) {
            admitted += w.admitted();
            rejected += w.rejected();
            if (first < 0 && w.exhausted()) {
                first = (w.exhaustedMs() - w.startMs()) / 1000.0;
            }
        }
        return new Predicted(admitted, rejected, first);
    }

    /** One second of a key's run: admitted, rejected by the quota, and the least RateLimit r told (-1: none told). */
    public record Second(long admitted, long rejected, long leastRemaining) {
        Second plus(Second o) {
            return new Second(admitted + o.admitted, rejected + o.rejected,
                    leastRemaining < 0 ? o.leastRemaining : o.leastRemaining < 0 ? leastRemaining
                            : Math.min(leastRemaining, o.leastRemaining));
        }
    }

    /** The figures of one cell's run; null when the quota decided nothing (a cell whose edges logged no quota). */
    static QuotaFigures of(Cell cell, QuotaTraffic traffic, List<Sample> samples, List<EdgeEvent> front) {
        QuotaSpec spec = traffic.quota().model();
        Map<String, String> keyOf = new LinkedHashMap<>();
        for (String key : traffic.keys(cell)) {
            keyOf.put(EdgeEvent.QuotaMark.ofKey(key), key);
        }
        // In Redis's order: within one millisecond a key's admissions came before its rejections, for
        // a window's count (and sliding's estimate) only grows within it.
        List<EdgeEvent.QuotaMark> decided = front.stream().map(EdgeEvent::quota).filter(EdgeEvent.QuotaMark::decided)
                .sorted(Comparator.comparingLong(EdgeEvent.QuotaMark::atMs)
                        .thenComparing(m -> m.admitted() ? 0 : 1)).toList();
        if (decided.isEmpty()) {
            return null;
        }
        long start = decided.get(0).atMs();
        long fallbacks = decided.stream().filter(m -> m.status().startsWith("FALLBACK")).count();
        dev.ratecache.model.QuotaLimiter model = new dev.ratecache.model.QuotaLimiter(spec);
        long agrees = 0;
        long replayed = 0;
        for (EdgeEvent.QuotaMark m : decided) {
            // An edge falls back when Redis answers later than its timeout, most often with the
            // script run and the request counted: the replay asks the model too, and compares only
            // what Redis itself answered.
            boolean admitted = model.answer(m.of(), m.atMs()).admitted();
            if (!m.status().startsWith("FALLBACK")) {
                replayed++;
                agrees += admitted == m.admitted() ? 1 : 0;
            }
        }
        Map<String, List<Sample>> sentBy = new LinkedHashMap<>();
        for (Sample s : samples) {
            // The library's driver labels by path: its samples are all the one paced key's.
            String key = cell.library() ? QuotaTraffic.PACED : TierFigures.keyOf(s.label());
            sentBy.computeIfAbsent(key, k -> new ArrayList<>()).add(s);
        }
        List<KeyFigures> keys = new ArrayList<>();
        for (var e : keyOf.entrySet()) {
            List<EdgeEvent.QuotaMark> own = decided.stream().filter(m -> m.of().equals(e.getKey())).toList();
            List<Sample> sent = sentBy.getOrDefault(e.getValue(), List.of());
            keys.add(key(e.getValue(), spec, start, own, sent));
        }
        return new QuotaFigures(traffic.quota().window().toString(), spec.limit(), spec.windowMs(), start, keys,
                fallbacks, agrees, replayed);
    }

    private static KeyFigures key(String key, QuotaSpec spec, long start, List<EdgeEvent.QuotaMark> own,
            List<Sample> sent) {
        List<dev.ratecache.model.QuotaLimiter.Decided> decisions = new ArrayList<>();
        Map<Long, Long> fellBack = new TreeMap<>();
        Map<Long, Second> seconds = new TreeMap<>();
        List<Long> admittedAt = new ArrayList<>();
        for (EdgeEvent.QuotaMark m : own) {
            decisions.add(new dev.ratecache.model.QuotaLimiter.Decided(key, m.atMs(), m.admitted()));
            if (m.admitted()) {
                admittedAt.add(m.atMs());
                if (m.status().startsWith("FALLBACK")) {
                    fellBack.merge(spec.windowStart(m.atMs()), 1L, Long::sum);
                }
            }
            seconds.merge((m.atMs() - start) / 1000, new Second(m.admitted() ? 1 : 0, m.admitted() ? 0 : 1,
                    m.remaining()), Second::plus);
        }
        List<Window> windows = dev.ratecache.model.QuotaLimiter.tally(spec, decisions).stream()
                .map(w -> new Window(w.startMs(), w.admitted(), w.rejected(), w.exhaustedMs(), w.admittedAfter(),
                        fellBack.getOrDefault(w.startMs(), 0L))).toList();
        long rejected = own.size() - admittedAt.size();
        long[] times = admittedAt.stream().mapToLong(Long::longValue).sorted().toArray();
        long most = times.length == 0 ? 0 : BusiestWindow.in(times, spec.windowMs()).count();
        long limitRejected = sent.stream().filter(Sample::rejected).count();
        return new KeyFigures(key, sent.size(), admittedAt.size(), rejected, Math.max(0, limitRejected - rejected),
                windows, most, seconds, predicted(spec, key, sent.stream().map(Sample::timeStamp).sorted().toList()));
    }

    /** The seconds {@code from} (inclusive) to {@code to} (exclusive) of {@code key}'s run, summed; null when it had none. */
    public Second slice(KeyFigures key, long from, long to) {
        Second sum = null;
        for (var e : key.seconds().entrySet()) {
            if (e.getKey() >= from && e.getKey() < to) {
                sum = sum == null ? e.getValue() : sum.plus(e.getValue());
            }
        }
        return sum;
    }

    /** The most any key was admitted in one fixed (or calendar) window. */
    public long mostInAFixedWindow() {
        return keys.stream().flatMap(k -> k.windows().stream()).mapToLong(Window::admitted).max().orElse(0);
    }

    /** Whether the windows slide (the estimate's), rather than lie fixed. */
    public boolean sliding() {
        return mode.equals(dev.ratecache.suite.spec.Quota.Window.SLIDING.toString());
    }

    /** The most any key was admitted in any W-long stretch. */
    public long mostInAnyWindow() {
        return keys.stream().mapToLong(KeyFigures::mostInWindow).max().orElse(0);
    }

    /** The bound on a W-long stretch: N where windows are fixed, 2N - 1 under sliding's estimate (docs/quotas.md). */
    public long stretchBound() {
        return sliding() ? 2 * limit - 1 : 2 * limit;
    }

    @Override
    public String terminalLine() {
        List<String> parts = new ArrayList<>();
        for (KeyFigures k : keys) {
            double out = k.firstExhaustedAfterSeconds();
            parts.add(String.format(Locale.ROOT, "%s %d admitted, %d quota 429%s", k.key(), k.admitted(),
                    k.quotaRejected(), out < 0 ? "" : String.format(Locale.ROOT, " (out after %.1f s)", out)));
        }
        return String.format(Locale.ROOT, "quota %d/%ds %s: %s; most in one window %d of %d; model agrees on %d of %d%s",
                limit, windowMs / 1000, mode, String.join(", ", parts), mostInAFixedWindow(), limit, modelAgrees,
                modelDecisions, fallbacks == 0 ? "" : "; Redis fallbacks " + fallbacks);
    }
}
