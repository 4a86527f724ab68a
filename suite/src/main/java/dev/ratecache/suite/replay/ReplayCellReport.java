package dev.ratecache.suite.replay;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.ratecache.accesslog.ClientAddress;
import dev.ratecache.jtl.JtlSummary;
import dev.ratecache.jtl.Lateness;
import dev.ratecache.jtl.Sample;
import dev.ratecache.suite.edge.EdgeEvent;
import dev.ratecache.suite.matrix.Cell;
import dev.ratecache.suite.matrix.CellMeasurement;
import dev.ratecache.suite.matrix.CellReport;
import dev.ratecache.suite.matrix.CellResult;
import dev.ratecache.suite.matrix.ReplayBreakdown;
import dev.ratecache.suite.switches.TierMembership;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * A replay cell's breakdown, written as {@value #FILE} in its folder: per path and per original
 * client, and how far the generator kept to the schedule. Per client is what a limit means to the
 * people behind it: the ones it would reject or delay.
 */
public final class ReplayCellReport implements CellReport {
    public static final String FILE = "replay.json";
    /** p99 lateness beyond this (--max-lateness) and the cell's figures are not the log's traffic any more. */
    public static final long DEFAULT_MAX_LATENESS_MS = 50;
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private final Map<String, String> clientByAddress = new LinkedHashMap<>();
    private final int top;
    private final long maxLatenessMs;
    private final TierMembership tiers;

    /**
     * @param clients       the replay's mapping
     * @param top           how many paths and clients to list by requests
     * @param maxLatenessMs the p99 start lateness past which the generator is behind the log's schedule
     */
    public ReplayCellReport(List<ClientAddress> clients, int top, long maxLatenessMs) {
        this(clients, top, maxLatenessMs, null);
    }

    /** @param tiers for a replay that sends keys, which tier each is in; null for a replay by address alone */
    public ReplayCellReport(List<ClientAddress> clients, int top, long maxLatenessMs, TierMembership tiers) {
        clients.forEach(c -> clientByAddress.put(c.address(), c.client()));
        this.top = top;
        this.maxLatenessMs = maxLatenessMs;
        this.tiers = tiers;
    }

    /**
     * How well a replay cell kept to the log's schedule: its worst run.
     *
     * @param p99Ms         the highest start-lateness p99 of the cell's runs
     * @param maxLatenessMs the limit it was held to
     * @param run           which run (1-based) had it
     * @param runs          how many runs the cell had
     */
    public record Schedule(long p99Ms, long maxLatenessMs, int run, int runs) {
        public boolean behind() {
            return p99Ms > maxLatenessMs;
        }

        public String describe() {
            return "start lateness p99 " + p99Ms + " ms" + (runs > 1 ? " in run " + run : "")
                    + (behind() ? " > " : " <= ") + maxLatenessMs + " ms";
        }
    }

    /** The cell's schedule over its runs' breakdowns; empty for a cell that is no replay. */
    public static java.util.Optional<Schedule> schedule(CellResult r) {
        Schedule worst = null;
        List<CellMeasurement.Breakdowns> runs = r.breakdownsPerRun();
        for (int i = 0; i < runs.size(); i++) {
            ReplayBreakdown b = runs.get(i).figure(ReplayBreakdown.class);
            if (b != null && b.lateness().scheduled() > 0 && (worst == null || b.lateness().p99Ms() > worst.p99Ms())) {
                worst = new Schedule(b.lateness().p99Ms(), b.maxLatenessMs(), i + 1, runs.size());
            }
        }
        return java.util.Optional.ofNullable(worst);
    }

    @Override
    public ReplayBreakdown write(Cell cell, Path cellDir, List<Sample> samples, List<EdgeEvent> front,
            List<EdgeEvent> back) throws IOException {
        ReplayBreakdown b = breakdown(samples, front, back);
        JSON.writeValue(cellDir.resolve(FILE).toFile(), b);
        return b;
    }

    ReplayBreakdown breakdown(List<Sample> samples, List<EdgeEvent> front, List<EdgeEvent> back) {
        Lateness lateness = Lateness.of(samples);
        Map<String, long[]> byPath = new LinkedHashMap<>();
        Map<String, long[]> byClient = new LinkedHashMap<>();
        for (Sample s : samples) {
            long[] p = byPath.computeIfAbsent(s.label(), k -> new long[3]);
            long[] c = byClient.computeIfAbsent(s.client(), k -> new long[3]);
            p[0]++;
            c[0]++;
            if (JtlSummary.isRejection(s.responseCode())) {
                p[1]++;
                c[1]++;
            }
            if ("HIT".equals(s.cacheStatus())) {
                p[2]++;
            }
        }
        Map<String, Long> delayed = count(front, e -> e.limit() == EdgeEvent.Limit.DELAYED
                ? clientByAddress.getOrDefault(e.key(), e.key()) : null);
        // What the back end passed to the origin is what reached it: it asked an upstream then.
        Map<String, Long> reachedOrigin = back == null ? null
                : count(back, e -> e.wentUpstream() ? pathOf(e.uri()) : null);
        List<ReplayBreakdown.PathRow> paths = byPath.entrySet().stream()
                .sorted(Comparator.comparingLong((Map.Entry<String, long[]> e) -> -e.getValue()[0]))
                .limit(top)
                .map(e -> new ReplayBreakdown.PathRow(e.getKey(), e.getValue()[0], e.getValue()[1], pct(e.getValue()[1], e.getValue()[0]),
                        pct(e.getValue()[2], e.getValue()[0]),
                        reachedOrigin == null ? null : reachedOrigin.getOrDefault(e.getKey(), 0L)))
                .toList();
        Map<String, String> addressByClient = new LinkedHashMap<>();
        clientByAddress.forEach((address, client) -> addressByClient.put(client, address));
        List<ReplayBreakdown.ClientRow> all = byClient.entrySet().stream()
                .map(e -> new ReplayBreakdown.ClientRow(e.getKey(), addressByClient.getOrDefault(e.getKey(), ""), e.getValue()[0],
                        e.getValue()[1], delayed.getOrDefault(e.getKey(), 0L)))
                .sorted(Comparator.comparingLong((ReplayBreakdown.ClientRow r) -> -r.requests()))
                .toList();
        List<ReplayBreakdown.ClientRow> listed = new ArrayList<>();
        for (int i = 0; i < all.size(); i++) {
            ReplayBreakdown.ClientRow r = all.get(i);
            if (i < top || r.rejected() > 0 || r.delayed() > 0) {
                listed.add(r);
            }
        }
        boolean behind = lateness.scheduled() > 0 && lateness.p99Ms() > maxLatenessMs;
        long clientsRejected = all.stream().filter(r -> r.rejected() > 0).count();
        if (tiers == null) {
            return new ReplayBreakdown(lateness, maxLatenessMs, behind, paths, listed, all.size(), clientsRejected);
        }
        Keys k = keys(samples, tiers, top);
        return new ReplayBreakdown(lateness, maxLatenessMs, behind, paths, listed, all.size(), clientsRejected, k.listed(),
                k.inAll(), k.rejected(), k.tiers());
    }

    /** The per-key and per-tier tables of a keyed replay. */
    record Keys(List<ReplayBreakdown.KeyRow> listed, long inAll, long rejected, List<ReplayBreakdown.TierRow> tiers) {}

    /**
     * Per key (sent in the limit key's header) and per tier. Listed: the top {@code top} keys by
     * requests, then the rejected ones by rejections, up to {@code top} more: a key-rotating client
     * could otherwise fill the report with thousands of one-request keys.
     */
    static Keys keys(List<Sample> samples, TierMembership tiers, int top) {
        Map<String, long[]> byKey = new LinkedHashMap<>();
        long[] keyless = new long[2];
        for (Sample s : samples) {
            long[] c = s.key().isEmpty() ? keyless : byKey.computeIfAbsent(s.key(), x -> new long[2]);
            c[0]++;
            if (JtlSummary.isRejection(s.responseCode())) {
                c[1]++;
            }
        }
        List<ReplayBreakdown.KeyRow> all = byKey.entrySet().stream()
                .map(e -> new ReplayBreakdown.KeyRow(e.getKey(), tiers.tierOf(e.getKey()), e.getValue()[0], e.getValue()[1],
                        pct(e.getValue()[1], e.getValue()[0])))
                .sorted(Comparator.comparingLong((ReplayBreakdown.KeyRow r) -> -r.requests()).thenComparing(ReplayBreakdown.KeyRow::key))
                .toList();
        List<ReplayBreakdown.KeyRow> listed = new ArrayList<>(all.subList(0, Math.min(top, all.size())));
        all.subList(listed.size(), all.size()).stream().filter(r -> r.rejected() > 0)
                .sorted(Comparator.comparingLong((ReplayBreakdown.KeyRow r) -> -r.rejected()).thenComparing(ReplayBreakdown.KeyRow::key))
                .limit(top).forEach(listed::add);
        Map<String, long[]> byTier = new LinkedHashMap<>();
        tiers.names().forEach(t -> byTier.put(t, new long[4]));
        for (ReplayBreakdown.KeyRow r : all) {
            long[] t = byTier.get(r.tier());
            t[0]++;
            t[1] += r.rejected() > 0 ? 1 : 0;
            t[2] += r.requests();
            t[3] += r.rejected();
        }
        List<ReplayBreakdown.TierRow> tierRows = new ArrayList<>();
        byTier.forEach((name, t) -> tierRows.add(new ReplayBreakdown.TierRow(name, t[0], t[1], t[2], t[3], pct(t[3], t[2]))));
        if (keyless[0] > 0) {
            tierRows.add(new ReplayBreakdown.TierRow(ReplayBreakdown.NO_KEY, 0, 0, keyless[0], keyless[1], pct(keyless[1], keyless[0])));
        }
        return new Keys(listed, all.size(), all.stream().filter(r -> r.rejected() > 0).count(), tierRows);
    }

    public static ReplayBreakdown read(Path cellDir) throws IOException {
        return JSON.readValue(cellDir.resolve(FILE).toFile(), ReplayBreakdown.class);
    }

    private static Map<String, Long> count(List<EdgeEvent> events, Function<EdgeEvent, String> key) {
        Map<String, Long> counts = new LinkedHashMap<>();
        if (events == null) {
            return counts;
        }
        for (EdgeEvent e : events) {
            String k = key.apply(e);
            if (k != null) {
                counts.merge(k, 1L, Long::sum);
            }
        }
        return counts;
    }

    static String pathOf(String uri) {
        int q = uri.indexOf('?');
        return q < 0 ? uri : uri.substring(0, q);
    }

    private static double pct(long part, long whole) {
        return whole == 0 ? 0 : Math.round(1000.0 * part / whole) / 10.0;
    }

    static String format(double value) {
        return String.format(Locale.ROOT, "%.1f", value);
    }
}
