package dev.ratecache.suite.model;

import dev.ratecache.model.Arrival;
import dev.ratecache.model.Freshness;
import dev.ratecache.model.LimitReqSpec;
import dev.ratecache.model.OriginSpec;
import dev.ratecache.model.PathSpec;
import dev.ratecache.model.RequestOutcome;
import dev.ratecache.model.Simulation;
import dev.ratecache.model.SimulationSpec;
import dev.ratecache.model.Workload;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The whole simulation of two chained tiers against nginx's two logs, request by request, fed the
 * times nginx itself saw: each request reaches the front at its logged start, and goes on to the
 * back after the model's front delay plus its hop as nginx's logs give it (the back's start less the
 * front's start and that delay). So a busy machine, which stretches the hops, changes nothing.
 *
 * <p>What the logs cannot give exactly, the comparison tolerates as {@link NginxComparison} does: a
 * request whose decision flips when its time at a tier moves by a millisecond or two (the logs'
 * wall-clock milliseconds are not limit_req's), including two requests of one millisecond decided
 * in the other order (the front lets delayed requests of several clients go in one timer tick, and
 * no log shows their order). Where such a shift gives nginx's decision the simulation keeps it, so
 * the buckets stay in step for the requests after it.
 */
final class TwoTierComparison {

    /** One request's decisions at both tiers ({@code null} at the back: it never got there). */
    record Decisions(String front, String back) {
        @Override
        public String toString() {
            return front + "/" + back;
        }
    }

    /** A request the simulation decided otherwise, and whether a shift of a millisecond or two explains it. */
    record Disagreement(String id, long atBackMs, Decisions nginx, Decisions model, boolean boundary) {
        Disagreement explained() {
            return new Disagreement(id, atBackMs, nginx, model, true);
        }

        @Override
        public String toString() {
            return id + " at the back " + atBackMs + " ms: nginx " + nginx + ", model " + model + (boundary ? " (boundary)" : "");
        }
    }

    record Result(int compared, List<Disagreement> disagreements) {}

    private final LimitReqSpec frontSpec;
    private final LimitReqSpec backSpec;
    private final List<Nginx.LogLine> ordered;
    private final long t0;
    private final long[] frontAt;
    private final long[] hops;

    private TwoTierComparison(LimitReqSpec frontSpec, LimitReqSpec backSpec, List<Nginx.LogLine> front,
            Map<String, Long> backStart) {
        this.frontSpec = frontSpec;
        this.backSpec = backSpec;
        this.ordered = NginxComparison.inProcessingOrder(front);
        this.t0 = ordered.get(0).startMs();
        this.frontAt = new long[ordered.size()];
        this.hops = new long[ordered.size()];
        for (int k = 0; k < ordered.size(); k++) {
            frontAt[k] = ordered.get(k).startMs() - t0;
            hops[k] = Arrival.SPEC_HOP;
        }
        // The hop needs the model's front delay: a first run, with the spec's hop, gives it.
        // The back's times are the logged ones, all later by CLOCKS_MS alike, which changes none of
        // the back's gaps: its log can put a request a millisecond or two before the front let it
        // go by the front's log (two wall-clock readings against one monotonic timer), and a hop
        // cannot be negative. A larger lead is left at a hop of 0, to show up.
        List<Outcome> first = run(frontAt, hops);
        for (int k = 0; k < ordered.size(); k++) {
            Long atBack = backStart.get(ordered.get(k).id());
            if (atBack != null && first.get(k).decisions().back() != null) {
                hops[k] = Math.max(0, atBack + NginxComparison.CLOCKS_MS - ordered.get(k).startMs() - first.get(k).frontDelayMs());
            }
        }
    }

    static Result compare(LimitReqSpec frontSpec, LimitReqSpec backSpec, List<Nginx.LogLine> front,
            List<Nginx.LogLine> back) {
        Map<String, Long> backStart = back.stream().collect(Collectors.toMap(Nginx.LogLine::id, Nginx.LogLine::startMs));
        Map<String, String> backStatus = back.stream()
                .collect(Collectors.toMap(Nginx.LogLine::id, Nginx.LogLine::limitReqStatus));
        return new TwoTierComparison(frontSpec, backSpec, front, backStart).compare(backStart, backStatus);
    }

    /**
     * Passes over the requests until one moves no time: a pass takes them in the order they were
     * last decided, so a request delayed at the front is reached after the ones it was delayed past,
     * and a shift that gives it nginx's front decision comes too late for a later arrival at the
     * front that was decided first (a front bucket one request fuller rejects it). The next pass
     * sees both with the shift in place. The disagreements are the last pass's, and the ones an
     * earlier pass explained by a shift.
     */
    private Result compare(Map<String, Long> backStart, Map<String, String> backStatus) {
        Map<String, Disagreement> explainedBefore = new java.util.LinkedHashMap<>();
        Result result = null;
        for (int pass = 0; pass < 3; pass++) {
            long[] front = frontAt.clone();
            long[] hop = hops.clone();
            result = run(backStart, backStatus);
            result.disagreements().stream().filter(Disagreement::boundary)
                    .forEach(d -> explainedBefore.putIfAbsent(d.id(), d));
            if (java.util.Arrays.equals(front, frontAt) && java.util.Arrays.equals(hop, hops)) {
                break;
            }
        }
        List<Disagreement> all = new ArrayList<>(result.disagreements());
        Set<String> last = all.stream().map(Disagreement::id).collect(Collectors.toSet());
        explainedBefore.values().stream().filter(d -> !last.contains(d.id())).forEach(all::add);
        return new Result(result.compared(), all);
    }

    private Result run(Map<String, Long> backStart, Map<String, String> backStatus) {
        // In the order the requests were last decided: at the back where they got there, else at the front.
        List<Integer> order = new ArrayList<>();
        for (int k = 0; k < ordered.size(); k++) {
            order.add(k);
        }
        order.sort(Comparator.comparingLong(k -> lastDecided(k, backStart)));
        List<Decisions> model = simulate(frontAt, hops);
        List<Disagreement> disagreements = new ArrayList<>();
        for (int k : order) {
            Nginx.LogLine line = ordered.get(k);
            Decisions nginx = nginxDecisions(k, backStatus);
            if (nginx.equals(model.get(k))) {
                continue;
            }
            Decisions unshifted = model.get(k);
            List<Decisions> followed = followNginx(k, nginx, unshifted, backStart, backStatus);
            if (followed != null) {
                model = followed;
            }
            boolean explained = followed != null || swappedWithinAMillisecondOrTwo(k, model, backStart, backStatus);
            disagreements.add(new Disagreement(line.id(), lastDecided(k, backStart) - t0, nginx, unshifted, explained));
        }
        return new Result(ordered.size(), slotsTakenByTheOther(disagreements));
    }

    /**
     * A request left unexplained at the back that the model refused a slot nginx gave it, or gave
     * one nginx refused, paired with another displaced the other way, before it or after it (both decided at the front
     * as nginx did, each pair used once): the back's bucket holds the same after both, so the one slot
     * went to the other request, as a millisecond's difference earlier on can move it. A model with
     * a wrong rate or burst gives the back more or fewer slots, which displaces requests one way only.
     */
    private static List<Disagreement> slotsTakenByTheOther(List<Disagreement> disagreements) {
        List<Disagreement> result = new ArrayList<>(disagreements);
        boolean[] paired = new boolean[result.size()];
        for (int i = 0; i < result.size(); i++) {
            if (paired[i] || result.get(i).boundary() || !atTheBackOnly(result.get(i))) {
                continue;
            }
            // The nearest before it first, then the nearest after: which of the two a busy machine's hop
            // delayed is not the model's to know, only that the slot went to the other one.
            for (int j : nearestFirst(i, result.size())) {
                if (!paired[j] && atTheBackOnly(result.get(j)) && admitted(result.get(j)) != admitted(result.get(i))) {
                    paired[i] = true;
                    paired[j] = true;
                    result.set(i, result.get(i).explained());
                    result.set(j, result.get(j).explained());
                    break;
                }
            }
        }
        return result;
    }

    /** The other disagreements' places: those before {@code i}, nearest first, then those after it, nearest first. */
    private static List<Integer> nearestFirst(int i, int size) {
        List<Integer> order = new ArrayList<>();
        for (int j = i - 1; j >= 0; j--) {
            order.add(j);
        }
        for (int j = i + 1; j < size; j++) {
            order.add(j);
        }
        return order;
    }

    /** Decided at the front as nginx did, otherwise at the back. */
    private static boolean atTheBackOnly(Disagreement d) {
        return Objects.equals(d.nginx().front(), d.model().front()) && d.nginx().back() != null && d.model().back() != null
                && "REJECTED".equals(d.nginx().back()) != "REJECTED".equals(d.model().back());
    }

    /** Whether the model admitted what nginx rejected (true) or rejected what nginx admitted (false). */
    private static boolean admitted(Disagreement d) {
        return "REJECTED".equals(d.nginx().back());
    }

    private Decisions nginxDecisions(int k, Map<String, String> backStatus) {
        return new Decisions(ordered.get(k).limitReqStatus(), backStatus.get(ordered.get(k).id()));
    }

    /**
     * Moves this request's time at the tier that decided otherwise (its arrival at the front, or its
     * hop to the back) by a millisecond or two until it gets nginx's decisions; keeps the first move
     * that does and returns the simulation's decisions with it, or null when none does. A request the
     * front decided as nginx did keeps its front time, so the front's bucket and the delays of the
     * client's later requests stay as they were. When the request's own time cannot, the millisecond
     * of its predecessor at that tier moves instead, as in {@link NginxComparison}: the gap before
     * the predecessor set the bucket the request met.
     */
    private List<Decisions> followNginx(int k, Decisions nginx, Decisions model, Map<String, Long> backStart,
            Map<String, String> backStatus) {
        boolean frontAgrees = Objects.equals(nginx.front(), model.front());
        List<Decisions> own = followNginxOwnTime(k, nginx, frontAgrees);
        return own != null ? own : followNginxWithPredecessor(k, nginx, frontAgrees, backStart, backStatus);
    }

    private List<Decisions> followNginxOwnTime(int k, Decisions nginx, boolean frontAgrees) {
        for (int shift : NginxComparison.SHIFTS_MS) {
            for (boolean moveHop : frontAgrees ? new boolean[] {true} : new boolean[] {false, true}) {
                long[] front = frontAt.clone();
                long[] hop = hops.clone();
                if (moveHop) {
                    if (hop[k] == Arrival.SPEC_HOP) {
                        continue;
                    }
                    hop[k] = Math.max(0, hop[k] + shift);
                } else {
                    front[k] = Math.max(0, front[k] + shift);
                }
                List<Decisions> again = simulate(front, hop);
                if (nginx.equals(again.get(k))) {
                    System.arraycopy(front, 0, frontAt, 0, front.length);
                    System.arraycopy(hop, 0, hops, 0, hop.length);
                    return again;
                }
            }
        }
        return null;
    }

    /**
     * Moves together, by a millisecond or two, every request nginx logged at this tier in the
     * millisecond of the request's predecessor there (the back's one bucket, or at the front the
     * client's), the request too when it shares that millisecond; keeps the first move that gives
     * the request nginx's decisions while every moved request keeps its own, or returns null.
     */
    private List<Decisions> followNginxWithPredecessor(int k, Decisions nginx, boolean frontAgrees,
            Map<String, Long> backStart, Map<String, String> backStatus) {
        java.util.function.IntFunction<Long> at = frontAgrees
                ? j -> backStart.get(ordered.get(j).id())
                : j -> ordered.get(j).remoteAddr().equals(ordered.get(k).remoteAddr()) ? Long.valueOf(frontAt[j]) : null;
        Long mine = at.apply(k);
        if (mine == null) {
            return null;
        }
        long predecessor = Long.MIN_VALUE;
        for (int j = 0; j < ordered.size(); j++) {
            Long t = at.apply(j);
            if (j != k && t != null && t <= mine) {
                predecessor = Math.max(predecessor, t);
            }
        }
        List<Integer> moved = new ArrayList<>();
        for (int j = 0; j < ordered.size(); j++) {
            Long t = at.apply(j);
            if (t != null && t == predecessor) {
                moved.add(j);
            }
        }
        if (predecessor == Long.MIN_VALUE || (frontAgrees && moved.stream().anyMatch(j -> hops[j] == Arrival.SPEC_HOP))) {
            return null;
        }
        for (int shift : NginxComparison.SHIFTS_MS) {
            long[] front = frontAt.clone();
            long[] hop = hops.clone();
            for (int j : moved) {
                if (frontAgrees) {
                    hop[j] = Math.max(0, hop[j] + shift);
                } else {
                    front[j] = Math.max(0, front[j] + shift);
                }
            }
            List<Decisions> again = simulate(front, hop);
            if (nginx.equals(again.get(k)) && moved.stream().allMatch(j -> nginxDecisions(j, backStatus).equals(again.get(j)))) {
                System.arraycopy(front, 0, frontAt, 0, front.length);
                System.arraycopy(hop, 0, hops, 0, hop.length);
                return again;
            }
        }
        return null;
    }

    /**
     * Whether another request came within 2 ms of this one to the tier that decided otherwise (the
     * same millisecond, as a log's wall-clock milliseconds have it; at the front, from the same
     * client) and the model gave the two nginx's decisions there the other way round: their order is
     * all that differs, and the bucket is the same after both.
     */
    private boolean swappedWithinAMillisecondOrTwo(int k, List<Decisions> model, Map<String, Long> backStart,
            Map<String, String> backStatus) {
        Decisions mine = nginxDecisions(k, backStatus);
        boolean atFront = !Objects.equals(model.get(k).front(), mine.front());
        Long at = atFront ? Long.valueOf(frontAt[k]) : backStart.get(ordered.get(k).id());
        if (at == null || (!atFront && !Objects.equals(model.get(k).front(), mine.front()))) {
            return false;
        }
        for (int j = 0; j < ordered.size(); j++) {
            Decisions theirs = nginxDecisions(j, backStatus);
            Long other = atFront ? Long.valueOf(frontAt[j]) : backStart.get(ordered.get(j).id());
            boolean sameKey = !atFront || ordered.get(j).remoteAddr().equals(ordered.get(k).remoteAddr());
            if (j != k && other != null && sameKey && Math.abs(other - at) <= 2
                    && Objects.equals(tier(model.get(j), atFront), tier(mine, atFront))
                    && Objects.equals(tier(model.get(k), atFront), tier(theirs, atFront))) {
                return true;
            }
        }
        return false;
    }

    private static String tier(Decisions d, boolean front) {
        return front ? d.front() : d.back();
    }

    private long lastDecided(int k, Map<String, Long> backStart) {
        return backStart.getOrDefault(ordered.get(k).id(), ordered.get(k).startMs());
    }

    private List<Outcome> run(long[] front, long[] hop) {
        List<Arrival> arrivals = new ArrayList<>();
        for (int k = 0; k < ordered.size(); k++) {
            arrivals.add(new Arrival(front[k], ordered.get(k).remoteAddr(), "/", hop[k]));
        }
        SimulationSpec spec = new SimulationSpec(frontSpec, null, backSpec,
                new OriginSpec(8, Map.of("/", new PathSpec(0, Freshness.maxAge(0)))), 0, t0);
        Outcome[] byIndex = new Outcome[ordered.size()];
        for (RequestOutcome o : Simulation.run(spec, new Workload.Open(arrivals)).requests()) {
            byIndex[o.index()] = new Outcome(new Decisions(o.front() == null ? null : o.front().status().name(),
                    o.back() == null ? null : o.back().status().name()), o.front() == null ? 0 : o.front().delayMs());
        }
        return List.of(byIndex);
    }

    private record Outcome(Decisions decisions, long frontDelayMs) {}

    private List<Decisions> simulate(long[] front, long[] hop) {
        return run(front, hop).stream().map(Outcome::decisions).toList();
    }
}
