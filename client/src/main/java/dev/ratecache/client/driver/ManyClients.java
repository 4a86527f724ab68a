package dev.ratecache.client.driver;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ratecache.client.RateCacheClient;
import dev.ratecache.client.RateCacheResponse;
import dev.ratecache.client.RetryPolicy;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.apache.hc.client5.http.classic.methods.HttpGet;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * Many clients, one key: N clients (a thread and a client each) share one API key's limit and
 * each starts requests at its own steady rate, for a fixed time, retrying the edge's 429s by one
 * strategy. Per client it counts what went on the wire (attempts), the 429s among them and the
 * successes; their goodput and Jain's fairness index over it come out as JSON.
 *
 * <p>The window is closed as a load test's is (k6's graceful stop, say): after {@code --seconds}
 * no client starts a request, and every request already started may finish, retries included,
 * within {@code --drain}. Goodput is the successes of the requests started in the window per second
 * of it, the same rule for every strategy. Counting only what was answered within the window
 * instead would bill each strategy for what it happened to hold at the window's end: a request a
 * pacer held or a retry waited past it would be lost to goodput though the origin served it, and
 * a strategy that gives up on such a request would look no worse for it.
 *
 * <p>A client that falls behind its schedule (its retries took longer than its interval) starts
 * the next request at once and keeps its rate from there: it does not send the backlog in a
 * burst, so every strategy offers the same load and differs only in what it does after a 429.
 */
@Command(name = "many-clients", mixinStandardHelpOptions = true, sortOptions = false, usageHelpAutoWidth = true,
        description = {
            "N clients share one API key's limit, each sending at --rate, for --seconds; 429s are retried by --strategy:",
            "  immediate    retry at once (up to --retries)",
            "  backoff      exponential backoff with full jitter: a random wait in [0, min(cap, base x 2^k)]",
            "  retry-after  wait exactly what Retry-After says (1 s when it says nothing)",
            "  pace         the library: paceToPolicy(true), its own retries after Retry-After",
            "No request starts after --seconds; those started may finish, retries included, within --drain.",
            "Counts per client: attempts on the wire, 429s, successes; goodput (the successes per second of",
            "--seconds) and Jain's index in --json.",
            ""})
public final class ManyClients implements Callable<Integer> {
    /** The four ways of meeting a 429, in the order the comparison runs them. */
    public enum Strategy {
        IMMEDIATE("immediate"), BACKOFF("backoff"), RETRY_AFTER("retry-after"), PACE("pace");

        final String flag;

        Strategy(String flag) {
            this.flag = flag;
        }

        @Override
        public String toString() {
            return flag;
        }
    }

    @Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--url", paramLabel = "URL", description = "Base URL of the API (http://host:port). Default: ${DEFAULT-VALUE}.")
    URI url = URI.create("http://127.0.0.1:80");

    @Option(names = "--path", paramLabel = "PATH", description = "Path every request asks for. Default: ${DEFAULT-VALUE}.")
    String path = "/";

    @Option(names = "--header", paramLabel = "NAME:VALUE", description = "A header every request carries: the shared key, e.g. X-Api-Key:team. Repeatable.")
    List<String> headers = new ArrayList<>();

    @Option(names = "--clients", paramLabel = "N", description = "Clients sharing the key. Default: ${DEFAULT-VALUE}.")
    int clients = 10;

    @Option(names = "--rate", paramLabel = "R", description = "Requests each client starts per second. Default: ${DEFAULT-VALUE}.")
    double rate = 6;

    @Option(names = "--seconds", paramLabel = "S", description = "How long the clients start requests. Default: ${DEFAULT-VALUE}.")
    int seconds = 20;

    @Option(names = "--drain", paramLabel = "DURATION", converter = LoadDriver.DurationConverter.class,
            description = "After --seconds, how long the requests already started may take to finish, retries"
                    + " included; a request not done by then is given up. Default: 10s.")
    Duration drain = Duration.ofSeconds(10);

    @Option(names = "--strategy", paramLabel = "NAME", converter = StrategyConverter.class,
            description = "immediate, backoff, retry-after or pace. Default: ${DEFAULT-VALUE}.")
    Strategy strategy = Strategy.PACE;

    @Option(names = "--retries", paramLabel = "N", description = "Retries of a 429 per request, every strategy. Default: ${DEFAULT-VALUE}.")
    int retries = 3;

    @Option(names = "--backoff-base", paramLabel = "DURATION", converter = LoadDriver.DurationConverter.class,
            description = "backoff's first step. Default: 100ms.")
    Duration backoffBase = Duration.ofMillis(100);

    @Option(names = "--backoff-cap", paramLabel = "DURATION", converter = LoadDriver.DurationConverter.class,
            description = "backoff's longest wait. Default: 2s.")
    Duration backoffCap = Duration.ofSeconds(2);

    @Option(names = "--warm-up", paramLabel = "PATH",
            description = "Before the clock starts, each client asks PATH once, without the headers and through a client of"
                    + " its own, so that the run measures the strategies, not the JVM's start. Default: none.")
    String warmUp;

    @Option(names = "--json", paramLabel = "FILE", description = "Write the counts as JSON to FILE.")
    Path json;

    public static void main(String[] args) {
        System.exit(new CommandLine(new ManyClients()).execute(args));
    }

    /** One client's counts. */
    static final class Counts {
        long requests;
        long attempts;
        long rejected;
        long successes;
        /** Successes answered after the window, in the drain: counted in the goodput all the same. */
        long successesInDrain;
        long gaveUp;
        /** Requests given up because the drain ended first (counted in {@link #gaveUp} too). */
        long cut;
        long otherErrors;
    }

    @Override
    public Integer call() throws Exception {
        List<String> problems = new ArrayList<>();
        if (clients < 1 || clients > 1000) {
            problems.add("--clients must be 1 to 1000 (got " + clients + ")");
        }
        if (!(rate > 0 && rate <= 10_000)) {
            problems.add("--rate must be above 0 and at most 10000 (got " + rate + ")");
        }
        if (seconds < 1 || seconds > 3600) {
            problems.add("--seconds must be 1 to 3600 (got " + seconds + ")");
        }
        if (drain.isNegative() || drain.compareTo(Duration.ofHours(1)) > 0) {
            problems.add("--drain must be 0 to 1h (got " + drain + ")");
        }
        if (retries < 0 || retries > 100) {
            problems.add("--retries must be 0 to 100 (got " + retries + ")");
        }
        for (String h : headers) {
            if (!h.matches("[!#$%&'*+.^_`|~0-9A-Za-z-]+:[ -~]*")) {
                problems.add("--header must be NAME:VALUE (got '" + h + "')");
            }
        }
        if (!problems.isEmpty()) {
            problems.forEach(p -> spec.commandLine().getErr().println("many-clients: " + p));
            return 2;
        }
        List<Counts> counts = new ArrayList<>();
        for (int i = 0; i < clients; i++) {
            counts.add(new Counts());
        }
        long intervalNanos = Math.round(1e9 / rate);
        CountDownLatch go = new CountDownLatch(1);
        CountDownLatch ready = new CountDownLatch(clients);
        List<Thread> threads = new ArrayList<>();
        long[] start = new long[1];
        long windowNanos = TimeUnit.SECONDS.toNanos(seconds);
        for (int i = 0; i < clients; i++) {
            Counts c = counts.get(i);
            // Each client starts at its own phase of the interval, as independent programs would.
            long phase = intervalNanos * i / clients;
            Thread t = new Thread(() -> {
                // Built before the clock starts, as the warm-up runs: on a cold JVM building a client
                // takes long enough to eat into a short window.
                try (RateCacheClient client = client()) {
                    warmUp();
                    ready.countDown();
                    go.await();
                    runClient(client, c, start[0] + phase, start[0] + windowNanos, start[0] + windowNanos + drain.toNanos(),
                            intervalNanos);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                } catch (IOException e) {
                    throw new IllegalStateException(e);
                }
            }, "client-" + i);
            threads.add(t);
            t.start();
        }
        ready.await();
        start[0] = System.nanoTime();
        go.countDown();
        long drainEnd = start[0] + windowNanos + drain.toNanos();
        for (Thread t : threads) {
            long left = drainEnd - System.nanoTime();
            if (left > 0) {
                TimeUnit.NANOSECONDS.timedJoin(t, left);
            }
            // The strategies' own waits stop short of the drain's end; the library's pacing and
            // retry waits end at an interrupt, before the request goes on the wire again.
            t.interrupt();
        }
        for (Thread t : threads) {
            t.join();
        }
        long elapsedNanos = System.nanoTime() - start[0];
        ObjectNode out = report(counts, elapsedNanos);
        PrintWriter w = spec.commandLine().getOut();
        w.printf(Locale.ROOT, "%s: %d clients at %.2f r/s each for %d s: %d attempts, %d 429s, %d successes (%.2f/s), Jain %.3f%n",
                strategy, clients, rate, seconds, out.get("attempts").asLong(), out.get("rejected").asLong(),
                out.get("successes").asLong(), out.get("goodputPerSec").asDouble(), out.get("jain").asDouble());
        w.flush();
        if (json != null) {
            if (json.toAbsolutePath().getParent() != null) {
                Files.createDirectories(json.toAbsolutePath().getParent());
            }
            new ObjectMapper().writerWithDefaultPrettyPrinter().writeValue(json.toFile(), out);
        }
        return 0;
    }

    /**
     * One request to the warm-up path through a throwaway client: it loads and compiles the HTTP
     * stack's code, and its answer (whatever the edge says to a request without the key) teaches
     * the measured client nothing.
     */
    private void warmUp() {
        if (warmUp == null) {
            return;
        }
        try (RateCacheClient client = RateCacheClient.builder().noCache().retryPolicy(RetryPolicy.none()).build()) {
            client.execute(new HttpGet(url.resolve(warmUp))).code();
        } catch (IOException | RuntimeException e) {
            // A warm-up that fails has still warmed what it reached.
        }
    }

    private RateCacheClient client() {
        RateCacheClient.Builder b = RateCacheClient.builder().noCache();
        if (strategy == Strategy.PACE) {
            b.paceToPolicy(true).retryPolicy(RetryPolicy.builder().maxRetries(retries).build());
        } else {
            // The strategy's own loop retries; the library sends each attempt once.
            b.retryPolicy(RetryPolicy.none());
        }
        return b.build();
    }

    private HttpGet request() {
        HttpGet get = new HttpGet(url.resolve(path));
        for (String h : headers) {
            int colon = h.indexOf(':');
            get.setHeader(h.substring(0, colon), h.substring(colon + 1).trim());
        }
        return get;
    }

    /** Starts requests until {@code end}; the last one started may go on until {@code drainEnd}. */
    private void runClient(RateCacheClient client, Counts c, long first, long end, long drainEnd, long intervalNanos)
            throws InterruptedException {
        try {
            long due = first;
            while (due < end && !Thread.currentThread().isInterrupted()) {
                long wait = due - System.nanoTime();
                if (wait > 0) {
                    TimeUnit.NANOSECONDS.sleep(wait);
                }
                if (System.nanoTime() >= end) {
                    break;
                }
                c.requests++;
                oneRequest(client, c, end, drainEnd);
                due = Math.max(due + intervalNanos, System.nanoTime());
            }
        } finally {
            if (strategy == Strategy.PACE) {
                // The library retried inside each request: its own count of the 429s it retried.
                c.rejected += client.stats().retryCount(429);
            }
        }
    }

    /**
     * One request, retried by the strategy; a success after {@code end} still counts, but no wait
     * runs past {@code drainEnd}.
     */
    private void oneRequest(RateCacheClient client, Counts c, long end, long drainEnd) {
        for (int retry = 0; ; retry++) {
            RateCacheResponse r;
            try {
                r = client.execute(request());
            } catch (InterruptedIOException e) {
                // The drain ended while the library paced or waited to retry: nothing went on the wire for it.
                c.gaveUp++;
                c.cut++;
                return;
            } catch (IOException e) {
                c.otherErrors++;
                return;
            }
            c.attempts += r.networkRequests();
            if (r.isSuccessful()) {
                c.successes++;
                if (System.nanoTime() >= end) {
                    c.successesInDrain++;
                }
                return;
            }
            if (r.code() != 429) {
                c.otherErrors++;
                return;
            }
            c.rejected++;
            if (strategy == Strategy.PACE || retry >= retries) {
                c.gaveUp++;
                return;
            }
            long waitNanos = switch (strategy) {
                case IMMEDIATE -> 0;
                case BACKOFF -> {
                    // Full jitter (a random wait up to the capped exponential step).
                    long step = Math.min(backoffCap.toNanos(), backoffBase.toNanos() << Math.min(retry, 30));
                    yield (long) (ThreadLocalRandom.current().nextDouble() * step);
                }
                case RETRY_AFTER -> TimeUnit.SECONDS.toNanos(retryAfterSeconds(r.header("Retry-After")));
                case PACE -> throw new IllegalStateException("the library retries by itself");
            };
            if (System.nanoTime() + waitNanos >= drainEnd) {
                c.gaveUp++;
                c.cut++;
                return;
            }
            if (waitNanos > 0) {
                try {
                    TimeUnit.NANOSECONDS.sleep(waitNanos);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    c.gaveUp++;
                    c.cut++;
                    return;
                }
            }
        }
    }

    /** Retry-After as delta-seconds; 1 when absent or not a number (the edge always sends one). */
    static long retryAfterSeconds(String value) {
        if (value == null) {
            return 1;
        }
        try {
            return Math.max(0, Math.min(3600, Long.parseLong(value.trim())));
        } catch (NumberFormatException e) {
            return 1;
        }
    }

    /** Jain's fairness index of {@code xs}: (sum x)^2 / (n * sum x^2); 1 when all are equal (or all zero). */
    public static double jain(double[] xs) {
        double sum = 0;
        double squares = 0;
        for (double x : xs) {
            sum += x;
            squares += x * x;
        }
        return squares == 0 ? 1 : sum * sum / (xs.length * squares);
    }

    private ObjectNode report(List<Counts> counts, long elapsedNanos) {
        ObjectMapper mapper = new ObjectMapper();
        ObjectNode out = mapper.createObjectNode();
        // Per second of the window, whose requests' successes in the drain count too: every strategy
        // is billed for the same span, whatever it held at the window's end.
        double window = seconds;
        out.put("strategy", strategy.flag);
        out.put("clients", clients);
        out.put("ratePerClient", rate);
        out.put("seconds", seconds);
        out.put("drainMs", drain.toMillis());
        out.put("elapsedMs", TimeUnit.NANOSECONDS.toMillis(elapsedNanos));
        out.put("retries", retries);
        out.put("backoffBaseMs", backoffBase.toMillis());
        out.put("backoffCapMs", backoffCap.toMillis());
        long requests = 0;
        long attempts = 0;
        long rejected = 0;
        long successes = 0;
        long inDrain = 0;
        long gaveUp = 0;
        long cut = 0;
        long other = 0;
        double[] goodput = new double[counts.size()];
        ArrayNode per = out.putArray("perClient");
        for (int i = 0; i < counts.size(); i++) {
            Counts c = counts.get(i);
            goodput[i] = c.successes / window;
            ObjectNode n = per.addObject();
            n.put("requests", c.requests);
            n.put("attempts", c.attempts);
            n.put("rejected", c.rejected);
            n.put("successes", c.successes);
            n.put("successesInDrain", c.successesInDrain);
            n.put("gaveUp", c.gaveUp);
            n.put("cut", c.cut);
            n.put("otherErrors", c.otherErrors);
            n.put("goodputPerSec", goodput[i]);
            requests += c.requests;
            attempts += c.attempts;
            rejected += c.rejected;
            successes += c.successes;
            inDrain += c.successesInDrain;
            gaveUp += c.gaveUp;
            cut += c.cut;
            other += c.otherErrors;
        }
        out.put("requests", requests);
        out.put("attempts", attempts);
        out.put("rejected", rejected);
        out.put("successes", successes);
        out.put("successesInDrain", inDrain);
        out.put("gaveUp", gaveUp);
        out.put("cut", cut);
        out.put("otherErrors", other);
        out.put("goodputPerSec", successes / window);
        out.put("jain", jain(goodput));
        return out;
    }

    static final class StrategyConverter implements CommandLine.ITypeConverter<Strategy> {
        @Override
        public Strategy convert(String value) {
            for (Strategy s : Strategy.values()) {
                if (s.flag.equals(value)) {
                    return s;
                }
            }
            throw new CommandLine.TypeConversionException("--strategy must be immediate, backoff, retry-after or pace (got '" + value + "')");
        }
    }
}
