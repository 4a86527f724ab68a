package dev.ratecache.suite.kinds.quotas;

import dev.ratecache.jtl.Sample;
import dev.ratecache.suite.edge.EdgeEvent;
import dev.ratecache.suite.matrix.Cell;
import dev.ratecache.suite.matrix.CellTrait;
import dev.ratecache.suite.matrix.FleetFallbacks;
import dev.ratecache.suite.matrix.KeyedTraffic;
import dev.ratecache.suite.peak.Figure;
import dev.ratecache.suite.spec.Quota;
import dev.ratecache.suite.switches.LimitMode;
import dev.ratecache.suite.switches.LimitTier;
import dev.ratecache.suite.switches.StackSwitches;
import java.util.List;
import java.util.Locale;

/**
 * A cell of --matrix quotas: a quota ({@code --quota}, its window compressed for the run, e.g.
 * 600/60s standing for a day) counted across {@code edges} edges in round robin, and who spends it.
 * The keys plan sends {@link #EARLY}, which spends its quota early (at {@link #EARLY_MULTIPLE}
 * times the quota's average rate, so it runs out a third of the way into a window), and
 * {@link #SPREAD}, which spreads it ({@link #SPREAD_SHARE} of that rate: never out); a library cell
 * sends {@link #PACED} with the client library pacing to the edge's RateLimit, wanting more than the
 * quota. The per-client burst limit is set far above all of them, so that what rejects them is the
 * quota alone.
 *
 * @param quota the quota, its window mode the cell's own
 * @param edges the edges it is counted across
 */
public record QuotaTraffic(Quota quota, int edges) implements CellTrait {
    public static final String TIER = "metered";
    public static final String EARLY = "early-1";
    public static final String SPREAD = "spread-1";
    public static final String PACED = "paced-1";
    /** The early key's rate over the quota's average: out of quota a third of the way into each window. */
    public static final double EARLY_MULTIPLE = 3;
    /** The spreading key's rate over the quota's average: inside it with room for the machine's jitter. */
    public static final double SPREAD_SHARE = 0.9;
    /** How many windows a cell runs: one to run out in, then the reset and half of the next. */
    public static final double WINDOWS = 1.5;

    /** The quota's average rate, requests/s: N over W. */
    public double averageRate() {
        return (double) quota.limit() / quota.windowSeconds();
    }

    /**
     * The tier every key is in: a burst limit far above the early key, so that only the quota
     * rejects: at least 100 r/s, and a burst of at least a whole window's quota, for JMeter on a
     * busy machine starts late and sends its backlog at once (a burst of 20 at 20 r/s still
     * rejected 8 of a 4-s window's backlog beside two busy loops, which the model cannot know).
     */
    public LimitTier tier() {
        int rate = (int) Math.min(LimitTier.MAX_RATE, Math.max(100, Math.ceil(20 * averageRate())));
        int burst = (int) Math.min(LimitTier.MAX_BURST, Math.max(rate, quota.limit()));
        return new LimitTier(TIER, rate, burst, LimitMode.NODELAY, List.of(EARLY, SPREAD, PACED));
    }

    /** The keys plan's keys property: the early and the spreading key at their rates. */
    public String plannedKeys() {
        return TIER + ":" + KeyedTraffic.number(EARLY_MULTIPLE * averageRate()) + ":" + EARLY + ";" + TIER + ":"
                + KeyedTraffic.number(SPREAD_SHARE * averageRate()) + ":" + SPREAD;
    }

    /** The plan's hold: {@link #WINDOWS} windows, in whole seconds. */
    public int holdSeconds() {
        return (int) Math.ceil(WINDOWS * quota.windowSeconds());
    }

    /** The library's requests: as many as the quota allows over {@link #WINDOWS} windows, paced over them. */
    public long libraryLoops() {
        return Math.round(WINDOWS * quota.limit());
    }

    @Override
    public StackSwitches apply(StackSwitches switches) {
        return switches.quota(quota.flag(), quota.window()).edges(edges);
    }

    @Override
    public boolean describesKeys() {
        return true;
    }

    @Override
    public String describe(Cell cell) {
        return String.format(Locale.ROOT, "quota %s (%s windows) across %d edges in round robin, %s", quota.flag(),
                quota.window(), edges, cell.library()
                        ? "key " + PACED + " sent by the client library paced to RateLimit, " + libraryLoops()
                                + " requests wanted"
                        : "key " + EARLY + " at " + KeyedTraffic.number(EARLY_MULTIPLE * averageRate()) + " r/s (spends it"
                                + " early), key " + SPREAD + " at " + KeyedTraffic.number(SPREAD_SHARE * averageRate())
                                + " r/s (spreads it)");
    }

    @Override
    public Figure collect(Cell cell, List<Sample> samples, FleetFallbacks fallbacks, List<EdgeEvent> front) {
        return front == null ? null : QuotaFigures.of(cell, this, samples, front);
    }

    /** The keys the cell sends. */
    public List<String> keys(Cell cell) {
        return cell.library() ? List.of(PACED) : List.of(EARLY, SPREAD);
    }
}
