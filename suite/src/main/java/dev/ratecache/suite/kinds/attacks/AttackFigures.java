package dev.ratecache.suite.kinds.attacks;

import dev.ratecache.suite.edge.SlowClient;
import dev.ratecache.suite.matrix.CellTrait;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What the attacker of a --matrix attacks cell saw of the edge: the connections it held, at most at
 * once and while the normal clients ran, and how the edge ended them (or did not), grouped.
 *
 * @param connections     the attacker's slots: connections it holds at once, each opened again once ended
 * @param opened          connections the edge took over the attack (refused ones not counted)
 * @param peakHeld        the most open at once
 * @param heldAtTraffic   open when the normal clients sent their first request
 * @param heldAfterTraffic open when the normal clients had their last answer
 * @param attackSeconds   from the first connection to the attack's end
 * @param endings         how the connections ended, most first
 * @param bound           the edge's settings that bound this attack, as its config says them
 * @param edge            the edge's own count of its connections over the attack (the normal clients'
 *                        among them); null where the suite cannot read one (nginx's stub_status only)
 */
public record AttackFigures(SlowClient kind, int connections, int opened, int peakHeld, int heldAtTraffic,
        int heldAfterTraffic, double attackSeconds, List<Ending> endings, String bound, EdgeConnections.Seen edge)
        implements CellTrait.Figure {

    /**
     * Connections that ended the same way: {@code how} as the attacker saw it, the edge's status
     * when it answered (0 when it did not), how many, and the median and longest time they were held.
     */
    public record Ending(String how, int status, long count, double medianSeconds, double maxSeconds) {
        /** In words: "410 closed by the edge without an answer after 10.0 s (median; at most 10.2 s)". */
        public String words() {
            String what = switch (how) {
                case "refused" -> "refused at connect";
                case "answered" -> "answered " + status + " by the edge";
                case "closed" -> status == 0 ? "closed by the edge without an answer"
                        : "closed by the edge mid-answers (the first " + status + ")";
                case "reset" -> "reset by the edge";
                default -> "still held when the attack ended";
            };
            return String.format(Locale.ROOT, "%d %s after %.1f s (median; at most %.1f s)", count, what,
                    medianSeconds, maxSeconds);
        }

        /** Whether the edge ended these connections (rather than the attack's end). */
        public boolean endedByEdge() {
            return !how.equals("held") && !how.equals("refused");
        }
    }

    static AttackFigures of(Attack attack, List<SlowClients.Connection> connections, long trafficStartMs,
            long trafficEndMs, long attackStartMs, String bound, EdgeConnections.Seen edge) {
        List<SlowClients.Connection> taken = connections.stream().filter(c -> c.openedMs() != 0).toList();
        long attackEnd = connections.stream().mapToLong(SlowClients.Connection::endedMs).max().orElse(attackStartMs);
        return new AttackFigures(attack.kind(), attack.connections(), taken.size(), peak(taken),
                openAt(taken, trafficStartMs), openAt(taken, trafficEndMs), (attackEnd - attackStartMs) / 1000.0,
                endings(connections), bound, edge);
    }

    private static int openAt(List<SlowClients.Connection> taken, long at) {
        return (int) taken.stream().filter(c -> c.openedMs() <= at && c.endedMs() > at).count();
    }

    /** The most open at once: +1 at each opening, -1 at each end, ends first at a tie. */
    private static int peak(List<SlowClients.Connection> taken) {
        List<long[]> events = new ArrayList<>();
        for (SlowClients.Connection c : taken) {
            events.add(new long[] {c.openedMs(), 1});
            events.add(new long[] {c.endedMs(), -1});
        }
        events.sort(Comparator.<long[]>comparingLong(e -> e[0]).thenComparingLong(e -> e[1]));
        int open = 0;
        int peak = 0;
        for (long[] e : events) {
            open += (int) e[1];
            peak = Math.max(peak, open);
        }
        return peak;
    }

    private static List<Ending> endings(List<SlowClients.Connection> connections) {
        Map<String, List<SlowClients.Connection>> groups = new LinkedHashMap<>();
        for (SlowClients.Connection c : connections) {
            // The status tells endings apart only where the edge's answer ended the connection, or its close cut one.
            boolean byStatus = c.how() == SlowClients.How.ANSWERED || c.how() == SlowClients.How.CLOSED;
            groups.computeIfAbsent(c.how().name().toLowerCase(Locale.ROOT) + " " + (byStatus ? c.status() : 0),
                    k -> new ArrayList<>()).add(c);
        }
        List<Ending> endings = new ArrayList<>();
        groups.forEach((key, group) -> {
            double[] held = group.stream().mapToDouble(SlowClients.Connection::heldSeconds).sorted().toArray();
            String[] parts = key.split(" ");
            endings.add(new Ending(parts[0], Integer.parseInt(parts[1]), group.size(), held[(held.length - 1) / 2],
                    held[held.length - 1]));
        });
        endings.sort(Comparator.comparingLong(Ending::count).reversed());
        return endings;
    }

    /** Connections the attack still held at its end: the edge never ended them. */
    public long held() {
        return endings.stream().filter(e -> e.how().equals("held")).mapToLong(Ending::count).sum();
    }

    /** The edge's side in words: "the edge counted at most 612 open (520 reading a header, ...), 7 at the attack's end". */
    public String edgeWords() {
        if (edge == null) {
            return "";
        }
        EdgeConnections.Counts p = edge.peak();
        return String.format(Locale.ROOT, "the edge counted at most %d connections open (%d reading a header, %d with a"
                + " request under way, %d idle), %d at the attack's end", p.active(), p.reading(), p.writing(), p.waiting(),
                edge.last().active());
    }

    @Override
    public String terminalLine() {
        return String.format(Locale.ROOT, "%s: %d slow clients, %d connections taken in all, at most %d held at once (%d as the normal"
                + " clients started, %d as they ended); %s%s", kind, connections, opened, peakHeld, heldAtTraffic,
                heldAfterTraffic, String.join("; ", endings.stream().map(Ending::words).toList()),
                edge == null ? "" : "; " + edgeWords());
    }
}
