package dev.ratecache.suite.migrate;

import dev.ratecache.model.LimitSpec;
import dev.ratecache.model.Limiter;
import dev.ratecache.suite.edge.Edge;
import dev.ratecache.suite.edge.EdgeEvent;
import dev.ratecache.suite.origin.OriginServer;
import dev.ratecache.suite.spec.StackSpec;
import dev.ratecache.suite.stack.Stack;
import dev.ratecache.suite.stack.StackPorts;
import dev.ratecache.suite.switches.StackSwitches;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Both configs run for real: the old product's tiers from the user's switches and the new one's from
 * the nearest, each through its adapter in front of the suite's origin, each sent the same flood from
 * one client; each product's own decisions (its front's events) against its model's, request by
 * request, at the times the product logged.
 */
public final class Verify {
    /** The flood: twice the rate, from one client, to a path the edge caches. */
    public static final int FLOOD_TIMES_RATE = 2;
    /** How long the flood lasts. */
    public static final Duration FLOOD = Duration.ofSeconds(5);
    /** The path flooded: the origin's quick one, cached at the edge. */
    static final String PATH = "/hare";
    /**
     * The share of requests whose product decision may differ from its model's: the model decides at
     * the time the product logged, to the millisecond, and a request that arrived at a limit's edge can
     * go either way on a millisecond of the product's cached clock.
     */
    public static final double TOLERANCE = 0.02;
    /** ... and never fewer than this many, for a short flood. */
    public static final int TOLERANCE_MIN = 3;

    private Verify() {}

    /** One product's run: how many requests its front logged, how many it refused, and how many its model decides otherwise. */
    public record Result(String product, long requests, long refused, long modelRefused, long disagreeing) {
        public long tolerated() {
            return Math.max(TOLERANCE_MIN, (long) Math.floor(requests * TOLERANCE));
        }

        public boolean agrees() {
            return disagreeing <= tolerated() && requests > 0;
        }

        public String words() {
            return product + ": " + requests + " requests, " + refused + " refused by " + product + ", " + modelRefused
                    + " by its model; " + disagreeing + " decided otherwise by the model (at most " + tolerated()
                    + " tolerated): " + (agrees() ? "agrees" : "DISAGREES");
        }
    }

    /** Runs both and compares each with its model; {@code dir} keeps each product's tiers and logs. */
    public static List<Result> run(Edge from, StackSwitches given, Edge to, StackSwitches nearest, Path dir)
            throws IOException, InterruptedException {
        StackPorts first = StackPorts.free();
        OriginServer origin = OriginServer.start(first.origin(), first.management(), 10, dir.resolve("origin.log"), List.of());
        try {
            List<Result> results = new ArrayList<>();
            results.add(one(from, given, Migration.fromLimit(from, given), first, origin, dir));
            StackPorts second = StackPorts.free().origin(first.origin(), first.management());
            origin.reset();
            results.add(one(to, nearest, Migration.toLimit(to, nearest), second, origin, dir));
            return results;
        } finally {
            origin.close();
        }
    }

    private static Result one(Edge edge, StackSwitches switches, LimitSpec model, StackPorts ports, OriginServer origin,
            Path dir) throws IOException, InterruptedException {
        StackSpec spec = switches.spec(ports);
        List<EdgeEvent> events;
        Stack stack = Stack.aroundEdge(edge, spec, origin, ports, dir);
        try {
            flood(stack.frontUri().resolve(PATH), switches.frontRate() * FLOOD_TIMES_RATE, FLOOD);
        } finally {
            stack.close();
        }
        events = stack.frontEvents();
        return compare(edge.displayName(), events, model);
    }

    /** {@code events} of one front against {@code model}, in the order they arrived, each at its logged time. */
    public static Result compare(String product, List<EdgeEvent> events, LimitSpec model) {
        List<EdgeEvent> inOrder = new ArrayList<>(events.stream().filter(e -> e.limit() != EdgeEvent.Limit.NONE).toList());
        // Within one millisecond a limit passes the first requests and refuses the rest (no time passes to
        // refill it), and a log's order within a millisecond is its own: the passed ones go first.
        inOrder.sort(Comparator.comparingLong(EdgeEvent::arrivalMs)
                .thenComparing(e -> e.limit() == EdgeEvent.Limit.REJECTED));
        Limiter limiter = model.limiter();
        long refused = 0;
        long modelRefused = 0;
        long disagreeing = 0;
        for (EdgeEvent e : inOrder) {
            boolean productRefused = e.limit() == EdgeEvent.Limit.REJECTED;
            boolean modelRefusedIt = !limiter.decide(e.key(), e.arrivalMs()).accepted();
            refused += productRefused ? 1 : 0;
            modelRefused += modelRefusedIt ? 1 : 0;
            disagreeing += productRefused != modelRefusedIt ? 1 : 0;
        }
        return new Result(product, inOrder.size(), refused, modelRefused, disagreeing);
    }

    /**
     * One client sending to {@code uri} at {@code perSecond} for {@code length}, each request at its
     * time whatever the earlier ones got (an open model); returns once every answer is in.
     */
    static void flood(URI uri, int perSecond, Duration length) throws InterruptedException {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        HttpRequest request = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(30)).GET().build();
        long n = length.toMillis() * perSecond / 1000;
        long start = System.nanoTime();
        List<CompletableFuture<HttpResponse<Void>>> sent = new ArrayList<>();
        for (long i = 0; i < n; i++) {
            long due = start + Math.round(i * 1e9 / perSecond);
            for (long wait = due - System.nanoTime(); wait > 0; wait = due - System.nanoTime()) {
                LockSupport.parkNanos(wait);
            }
            sent.add(http.sendAsync(request, HttpResponse.BodyHandlers.discarding()));
        }
        for (CompletableFuture<HttpResponse<Void>> answer : sent) {
            try {
                answer.get(60, TimeUnit.SECONDS);
            } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
                // A request the edge did not answer is missing from its log, and from the comparison.
            }
        }
    }
}
