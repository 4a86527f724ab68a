package dev.ratecache.suite.matrix;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.ratecache.jtl.Lateness;
import java.util.List;

/**
 * A replay cell's breakdown, as its folder's replay.json holds it: per path and per original client,
 * and how far the generator kept to the schedule. It lives here, beside the measurement that carries
 * it to the report, so that the matrix never names the replay package that writes it (no cycle).
 * {@code behindSchedule}: the lateness p99 was above {@code maxLatenessMs}. {@code keys} (the top keys,
 * and every key rejected up to as many again) and {@code tiers} only for a replay that sent keys;
 * absent from the file otherwise.
 */
public record ReplayBreakdown(Lateness lateness, long maxLatenessMs, boolean behindSchedule, List<PathRow> paths,
        List<ClientRow> clients, long clientsInAll, long clientsRejected,
        @JsonInclude(JsonInclude.Include.NON_NULL) List<KeyRow> keys,
        @JsonInclude(JsonInclude.Include.NON_NULL) Long keysInAll,
        @JsonInclude(JsonInclude.Include.NON_NULL) Long keysRejected,
        @JsonInclude(JsonInclude.Include.NON_NULL) List<TierRow> tiers) implements KindFigures {

    /** The tier table's row for the requests sent without a key: the address's limit counts them, not a key's. */
    public static final String NO_KEY = "(no key)";

    /** One path's figures. {@code originRequests} is null when no tier logged what reached the origin. */
    public record PathRow(String path, long requests, long rejected, double rejectedPct, double edgeHitPct,
            Long originRequests) {}

    /** One original client's figures; {@code delayed} counts the front end's per-client limit's delays. */
    public record ClientRow(String client, String address, long requests, long rejected, long delayed) {}

    /** One key's figures: {@code rejected} counts the rate limits' rejections (429 or 503). */
    public record KeyRow(String key, String tier, long requests, long rejected, double rejectedPct) {}

    /** One tier's figures over its keys; the row {@link #NO_KEY} holds the requests sent without a key. */
    public record TierRow(String tier, long keys, long keysRejected, long requests, long rejected, double rejectedPct) {}

    /** A replay by address alone. */
    public ReplayBreakdown(Lateness lateness, long maxLatenessMs, boolean behindSchedule, List<PathRow> paths,
            List<ClientRow> clients, long clientsInAll, long clientsRejected) {
        this(lateness, maxLatenessMs, behindSchedule, paths, clients, clientsInAll, clientsRejected, null, null,
                null, null);
    }

    /** The terminal's line under the cell's figures. */
    public String terminalLine() {
        return "schedule: " + lateness.describe() + (behindSchedule ? " (BEHIND: p99 over " + maxLatenessMs
                + " ms, the generator fell behind the log's schedule; the figures are not the log's traffic)" : "")
                + "; " + clientsRejected + " of " + clientsInAll + " clients had requests rejected";
    }
}
