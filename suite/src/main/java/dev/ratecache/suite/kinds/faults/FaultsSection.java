package dev.ratecache.suite.kinds.faults;

import dev.ratecache.suite.matrix.CellResult;
import dev.ratecache.suite.report.ReportSection;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** --matrix faults' table: each fault, the requests it cost, and how the edge came through it. */
public final class FaultsSection {
    static final List<String> HEADINGS = List.of("cell", "failed requests", "lost in flight (no response)",
            "new limit in force after (ms)", "admitted/s before / after", "worker started again after (ms)",
            "origin (or Redis) down (ms)", "answered stale meanwhile", "answered with an error meanwhile", "new origin's requests",
            "cache full: entries stored / evicted / held", "answers once full (X-Cache-Status)",
            "origin's app-cache errors", "new Redis's lookups");

    private FaultsSection() {}

    /** The section, when any cell has fault figures (its first run's). */
    public static List<ReportSection> of(List<CellResult> cells) {
        List<ReportSection.Row> rows = new ArrayList<>();
        List<String> lines = new ArrayList<>();
        Map<String, Map<String, Object>> figures = new LinkedHashMap<>();
        for (CellResult r : cells) {
            FaultFigures f = r.runs().isEmpty() ? null : r.firstBreakdowns().figure(FaultFigures.class);
            if (f == null) {
                continue;
            }
            boolean reload = f.fault().kind() == InjectedFault.Kind.RELOAD;
            rows.add(new ReportSection.Row(r.cell().name(), List.of(String.valueOf(f.failed()), String.valueOf(f.lost()),
                    reload && f.effectMs() != null ? String.valueOf(f.effectMs()) : "n/a",
                    reload ? f.beforePeak() + " / " + f.afterPeak() + " (new limit " + f.newLimit() + ")" : "n/a",
                    f.respawnMs() != null ? String.valueOf(f.respawnMs()) : "n/a",
                    f.downMs() != null ? String.valueOf(f.downMs()) : "n/a",
                    f.downMs() != null && f.fault().kind() != InjectedFault.Kind.REDIS_RESTART ? String.valueOf(f.servedStale())
                            : "n/a",
                    f.errorsMeanwhile() != null ? String.valueOf(f.errorsMeanwhile()) : "n/a",
                    f.originAfter() != null && f.downMs() != null ? String.valueOf(f.originAfter()) : "n/a",
                    f.cacheFill() != null ? f.cacheFill().stored() + " / " + f.cacheFill().evicted() + " / "
                            + f.cacheFill().held() : "n/a",
                    f.cacheFill() != null ? f.cacheFill().statusesText() : "n/a",
                    f.appCacheErrors() != null ? String.valueOf(f.appCacheErrors()) : "n/a",
                    f.redisAfter() != null ? String.valueOf(f.redisAfter()) : "n/a")));
            lines.add(r.cell().name() + ": " + f.terminalLine() + ".");
            figures.put(r.cell().name(), Map.of("fault", json(f)));
        }
        if (rows.isEmpty()) {
            return List.of();
        }
        String intro = "Each fault strikes the front tier mid-flood (each cell's description says when). Failed: requests"
                + " neither answered nor refused by a limit; lost in flight: those of them that got no HTTP response at"
                + " all. A reload's new limit is in force from the first one-second window after the signal from which"
                + " no window admits more than its rate + burst (windows slide by " + FaultFigures.STEP_MS + " ms, timed by the"
                + " client's start of each request). The origin restarts' outage is from the kill to the new origin"
                + " ready (for Redis, to the new one answering PING); a cache-full cell's moment is when its cache folder first reached its max_size.";
        return List.of(new ReportSection("Faults: the edge while things go wrong", intro,
                List.of(new ReportSection.Table(HEADINGS, rows)), lines, figures).definedIn("faults.md"));
    }

    private static Map<String, Object> json(FaultFigures f) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("kind", f.fault().kind().toString());
        json.put("fired", f.fired());
        json.put("error", f.error());
        json.put("failed", f.failed());
        json.put("lost", f.lost());
        json.put("effect_ms", f.effectMs());
        json.put("before_peak", f.beforePeak());
        json.put("after_peak", f.afterPeak());
        json.put("new_limit", f.newLimit());
        json.put("respawn_ms", f.respawnMs());
        json.put("down_ms", f.downMs());
        json.put("served_stale", f.servedStale());
        json.put("origin_after", f.originAfter());
        json.put("errors_meanwhile", f.errorsMeanwhile());
        json.put("failed_after", f.failedAfter());
        json.put("redis_after", f.redisAfter());
        json.put("app_cache_errors", f.appCacheErrors());
        FaultFigures.CacheFill c = f.cacheFill();
        if (c != null) {
            Map<String, Object> cache = new LinkedHashMap<>();
            cache.put("full_after_ms", c.fullAfterMs());
            cache.put("max_bytes", c.maxBytes());
            cache.put("peak_bytes", c.peakBytes());
            cache.put("stored", c.stored());
            cache.put("evicted", c.evicted());
            cache.put("held", c.held());
            cache.put("evicted_after_ms", c.evictedAfterMs());
            cache.put("statuses_after", c.statusesAfter());
            json.put("cache", cache);
        } else {
            json.put("cache", null);
        }
        return json;
    }
}
