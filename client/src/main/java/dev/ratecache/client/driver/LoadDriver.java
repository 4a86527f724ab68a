package dev.ratecache.client.driver;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ratecache.client.ClientStats;
import dev.ratecache.client.RateCacheClient;
import dev.ratecache.client.RateCacheResponse;
import dev.ratecache.client.ResponseSource;
import dev.ratecache.client.RetryPolicy;
import dev.ratecache.client.Throttle;
import dev.ratecache.jtl.Jtl;
import dev.ratecache.jtl.JtlSummary;
import dev.ratecache.jtl.Sample;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * Load through the library: N users, each looping over the paths with a think time, then the
 * library's statistics and latency percentiles, on stdout and optionally as JSON. {@code --jtl}
 * writes every request as JMeter's results file (the columns of jmeter/suite.properties), so a run
 * goes through the same summary, dashboard and graphs as a JMeter run.
 */
@Command(name = "client-driver", mixinStandardHelpOptions = true, sortOptions = false, usageHelpAutoWidth = true,
        description = {
            "Runs N users x loops over one or more paths through the ratecache client library.",
            "Prints the library's statistics and the latency percentiles; --json writes them too,",
            "--jtl every request as a JMeter results file (CSV).",
            "Each user has a client of its own, so a private cache of its own (like JMeter's cache manager).",
            "Every request is a sample, cache hits included.",
            ""},
        footer = {"", "Example:",
            "  java -jar client/target/client-driver.jar --url http://127.0.0.1:8000 \\",
            "      --path /hare --path /tortoise --users 20 --loops 5 --think 100ms --json library.json --jtl results.jtl"})
public final class LoadDriver implements Callable<Integer> {
    private static final Pattern DURATION = Pattern.compile("(\\d{1,9})(ms|s|m)?");

    @Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--url", paramLabel = "URL", description = "Base URL of the API (http://host:port). Default: ${DEFAULT-VALUE}.")
    URI url = URI.create("http://127.0.0.1:80");

    @Option(names = "--path", paramLabel = "PATH", description = "Path to request, e.g. /hare; repeatable, requested in order each loop. Default: /hare.")
    List<String> paths = new ArrayList<>();

    @Option(names = "--users", paramLabel = "N", description = "Concurrent users. Default: ${DEFAULT-VALUE}.")
    int users = 10;

    @Option(names = "--loops", paramLabel = "N", description = "Loops per user over the paths. Default: ${DEFAULT-VALUE}.")
    int loops = 10;

    @Option(names = "--think", paramLabel = "DURATION", converter = DurationConverter.class,
            description = "Pause after each request, e.g. 100ms, 1s. Default: 0.")
    Duration think = Duration.ZERO;

    @Option(names = "--ramp-up", paramLabel = "DURATION", converter = DurationConverter.class,
            description = "Time over which the users start, evenly spread. Default: 0 (all at once).")
    Duration rampUp = Duration.ZERO;

    @Option(names = "--cache", negatable = true, fallbackValue = "true",
            description = "Cache responses in each user's client (--no-cache turns it off). Default: on.")
    boolean cache = true;

    @Option(names = "--shared-cache", description = "Shared-cache semantics instead of a private cache.")
    boolean sharedCache;

    @Option(names = "--retries", paramLabel = "N", description = "Retries of a 429/503 per request; 0 turns retrying off. Default: ${DEFAULT-VALUE}.")
    int retries = 3;

    @Option(names = "--max-wait", paramLabel = "DURATION", converter = DurationConverter.class,
            description = "Longest single wait before a retry. Default: 10s.")
    Duration maxWait = Duration.ofSeconds(10);

    @Option(names = "--budget", paramLabel = "DURATION", converter = DurationConverter.class,
            description = "Time a request may take with its retries. Default: 20s.")
    Duration budget = Duration.ofSeconds(20);

    @Option(names = "--shuffle",
            description = "Ask the paths in a random order each loop, drawn per user (as JMeter's Random Order Controller)."
                    + " Default: in the order given.")
    boolean shuffle;

    @Option(names = "--seed", paramLabel = "N",
            description = "Seed of the --shuffle draws, to repeat a run's orders. Default: a new one each run (in --json).")
    Long seed;

    @Option(names = "--revalidation-threads", paramLabel = "N",
            description = "Each user's background revalidation threads (stale-while-revalidate); 0 revalidates before"
                    + " answering. Default: ${DEFAULT-VALUE}.")
    int revalidationThreads = 1;

    @Option(names = "--header", paramLabel = "NAME:VALUE",
            description = "A header every request carries, e.g. an API key: X-Api-Key:pro-1. Repeatable.")
    List<String> headers = new ArrayList<>();

    @Option(names = "--pace", description = "Pace each user's requests to the server's RateLimit-Policy.")
    boolean pace;

    @Option(names = "--throttle", paramLabel = "R",
            description = "Client-side limit for all users together, requests/s to the network. Default: none.")
    Double throttle;

    @Option(names = "--throttle-burst", paramLabel = "N", description = "Burst of the throttle. Default: ${DEFAULT-VALUE}.")
    int throttleBurst = 1;

    @Option(names = "--timeout", paramLabel = "DURATION", converter = DurationConverter.class,
            description = "Response timeout per exchange. Default: 60s.")
    Duration timeout = Duration.ofSeconds(60);

    @Option(names = "--ca", paramLabel = "FILE",
            description = "For an https URL, trust the certificates in FILE (PEM: a private CA, such as ./run-tests.sh"
                    + " up --tls's) instead of the JDK's.")
    Path ca;

    @Option(names = "--json", paramLabel = "FILE", description = "Also write the summary as JSON to FILE.")
    Path json;

    @Option(names = "--jtl", paramLabel = "FILE",
            description = "Also write every request to FILE as a JMeter results file (CSV, the columns of jmeter/suite.properties).")
    Path jtl;

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    /** The command line with this program's handling of bad input; for tests and main. */
    public static CommandLine commandLine() {
        CommandLine cli = new CommandLine(new LoadDriver());
        cli.setParameterExceptionHandler((e, args) -> {
            String hint = " (see --help)";
            if (e instanceof CommandLine.UnmatchedArgumentException u && !u.getSuggestions().isEmpty()) {
                hint = " (did you mean " + u.getSuggestions().get(0) + "?)";
            }
            e.getCommandLine().getErr().println("client-driver: " + e.getMessage() + hint);
            return 2;
        });
        return cli;
    }

    @Override
    public Integer call() throws Exception {
        validate();
        if (paths.isEmpty()) {
            paths.add("/hare");
        }
        Throttle shared = throttle == null ? null : Throttle.of(throttle, throttleBurst);
        RetryPolicy policy = retries == 0 ? RetryPolicy.none()
                : RetryPolicy.builder().maxRetries(retries).maxWait(maxWait).budget(budget).build();
        String base = url.toString().replaceAll("/+$", "");

        List<RateCacheClient> clients = new ArrayList<>();
        for (int u = 0; u < users; u++) {
            RateCacheClient.Builder b = RateCacheClient.builder().retryPolicy(policy).throttle(shared)
                    .responseTimeout(timeout).sharedCache(sharedCache).maxConnections(4)
                    .revalidationThreads(revalidationThreads).paceToPolicy(pace);
            if (ca != null) {
                b.trustCertificates(ca);
            }
            if (!headers.isEmpty()) {
                List<org.apache.hc.core5.http.Header> fixed = headers.stream()
                        .map(h -> (org.apache.hc.core5.http.Header) new org.apache.hc.core5.http.message.BasicHeader(
                                h.substring(0, h.indexOf(':')).strip(), h.substring(h.indexOf(':') + 1).strip()))
                        .toList();
                b.configure(c -> c.setDefaultHeaders(fixed));
            }
            clients.add((cache ? b : b.noCache()).build());
        }
        if (shuffle && seed == null) {
            // Kept in the JSON summary, so the run's orders can be drawn again.
            seed = new Random().nextLong();
        }
        int perUser = loops * paths.size();
        List<List<Sample>> samples = new ArrayList<>();
        AtomicInteger active = new AtomicInteger();
        CountDownLatch go = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        for (int u = 0; u < users; u++) {
            int user = u;
            List<Sample> mine = new ArrayList<>(perUser);
            samples.add(mine);
            long startDelay = users > 1 ? rampUp.toNanos() * u / users : 0;
            Random order = shuffle ? new Random(seed * 1_000_003L + u) : null;
            Thread t = new Thread(() -> runUser(clients.get(user), base, startDelay, go, active, mine, order),
                    "user-" + (u + 1));
            threads.add(t);
            t.start();
        }
        go.countDown();
        for (Thread t : threads) {
            t.join();
        }

        ClientStats stats = ClientStats.empty();
        for (RateCacheClient c : clients) {
            stats = stats.plus(c.stats());
        }
        // In completion order, as JMeter writes them.
        List<Sample> all = samples.stream().flatMap(List::stream).sorted(Comparator.comparingLong(Sample::end)).toList();
        Summary summary = new Summary(JtlSummary.of(all), stats);
        PrintWriter out = spec.commandLine().getOut();
        out.print(summary.text(describe()));
        out.flush();
        if (json != null) {
            new ObjectMapper().writerWithDefaultPrettyPrinter().writeValue(createParent(json).toFile(), summary.json(config()));
        }
        if (jtl != null) {
            Jtl.write(createParent(jtl), all);
        }
        return 0;
    }

    private static Path createParent(Path file) throws IOException {
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        return file;
    }

    /**
     * One user's loops. Its client is closed as soon as they are done, as a program closes its
     * client when its work ends: a background revalidation still on its way is given up then.
     */
    private void runUser(RateCacheClient client, String base, long startDelayNanos, CountDownLatch go,
            AtomicInteger active, List<Sample> samples, Random order) {
        String user = Thread.currentThread().getName();
        try (client) {
            go.await();
            TimeUnit.NANOSECONDS.sleep(startDelayNanos);
            active.incrementAndGet();
            try {
                List<String> loop = new ArrayList<>(paths);
                for (int n = 0; n < loops; n++) {
                    if (order != null) {
                        Collections.shuffle(loop, order);
                    }
                    for (String path : loop) {
                        samples.add(request(client, base, path, user, active));
                        if (!think.isZero()) {
                            TimeUnit.NANOSECONDS.sleep(think.toNanos());
                        }
                    }
                }
            } finally {
                active.decrementAndGet();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (IOException e) {
            spec.commandLine().getErr().println("client-driver: " + user + "'s client did not close: " + e.getMessage());
        }
    }

    /** One request as a sample, the way JMeter records it (a retried request is one sample). */
    private static Sample request(RateCacheClient client, String base, String path, String user, AtomicInteger active) {
        String url = base + path;
        long startMillis = System.currentTimeMillis();
        long t0 = System.nanoTime();
        try {
            RateCacheResponse r = client.get(url);
            long elapsed = (System.nanoTime() - t0) / 1_000_000;
            // Answered by the cache without the network (fresh, or stale while it is revalidated in the
            // background): labelled as JMeter labels its cache manager's hits.
            boolean fromCacheAlone = r.source() == ResponseSource.CACHE || r.source() == ResponseSource.STALE_WHILE_REVALIDATING;
            String message = fromCacheAlone ? JtlSummary.CLIENT_CACHE_HIT
                    : r.reason() == null ? "" : r.reason();
            return new Sample(startMillis, elapsed, path, String.valueOf(r.code()), message, user, r.code() < 400,
                    r.body().length, active.get(), url, orEmpty(r.header("X-Cache-Status")), orEmpty(r.header("Retry-After")));
        } catch (IOException e) {
            long elapsed = (System.nanoTime() - t0) / 1_000_000;
            // JMeter's form for a failure with no HTTP status.
            return new Sample(startMillis, elapsed, path, "Non HTTP response code: " + e.getClass().getName(),
                    "Non HTTP response message: " + e.getMessage(), user, false, 0, active.get(), url, "", "");
        }
    }

    private static String orEmpty(String value) {
        return value == null ? "" : value;
    }

    private void validate() {
        List<String> problems = new ArrayList<>();
        if (!"http".equals(url.getScheme()) && !"https".equals(url.getScheme()) || url.getHost() == null) {
            problems.add("--url must be http://host[:port] or https://host[:port] (got '" + url + "')");
        }
        for (String p : paths) {
            if (!p.startsWith("/") || p.contains(" ")) {
                problems.add("--path must start with / and hold no spaces (got '" + p + "')");
            }
        }
        for (String h : headers) {
            if (!h.matches("[!#$%&'*+.^_`|~0-9A-Za-z-]+:[\\x20-\\x7e]*")) {
                problems.add("--header must be NAME:VALUE, a token then printable ASCII (got '" + h + "')");
            }
        }
        range(problems, "--users", users, 1, 10_000);
        range(problems, "--loops", loops, 1, 10_000_000);
        range(problems, "--retries", retries, 0, 100);
        range(problems, "--revalidation-threads", revalidationThreads, 0, 64);
        range(problems, "--throttle-burst", throttleBurst, 1, 1_000_000);
        if (throttle != null && !(throttle > 0 && throttle <= 1_000_000)) {
            problems.add("--throttle must be a rate from above 0 to 1000000 requests/s (got " + throttle + ")");
        }
        if (maxWait.isZero() || budget.isZero() || timeout.isZero()) {
            problems.add("--max-wait, --budget and --timeout must be longer than 0");
        }
        if ((long) users * loops * Math.max(1, paths.size()) > 50_000_000L) {
            problems.add("--users x --loops x paths must be at most 50000000 requests");
        }
        if (!problems.isEmpty()) {
            throw new CommandLine.ParameterException(spec.commandLine(), String.join("; ", problems));
        }
    }

    private static void range(List<String> p, String flag, int value, int min, int max) {
        if (value < min || value > max) {
            p.add(flag + " must be a whole number from " + min + " to " + max + " (got " + value + ")");
        }
    }

    private String describe() {
        return users + " users x " + loops + " loops over " + paths + " at " + url
                + (think.isZero() ? "" : ", think " + think.toMillis() + " ms")
                + ", cache " + (cache ? (sharedCache ? "shared" : "private") : "off")
                + ", " + (retries == 0 ? "no retries" : "up to " + retries + " retries")
                + (shuffle ? ", paths shuffled each loop" : "")
                + (revalidationThreads == 0 ? ", no background revalidation" : "")
                + (pace ? ", paced to the server's policy" : "")
                + (throttle == null ? "" : ", throttle " + throttle + " r/s burst " + throttleBurst);
    }

    /** The run's settings, as written into the JSON summary beside its figures. */
    record Config(String url, List<String> paths, int users, int loops, long thinkMs, long rampUpMs, String cache,
            int retries, long maxWaitMs, long budgetMs, Double throttlePerSec, int throttleBurst, boolean shuffle,
            Long seed, int revalidationThreads, boolean pace) {}

    private Config config() {
        return new Config(url.toString(), List.copyOf(paths), users, loops, think.toMillis(), rampUp.toMillis(),
                cache ? (sharedCache ? "shared" : "private") : "off", retries, maxWait.toMillis(), budget.toMillis(),
                throttle, throttleBurst, shuffle, seed, revalidationThreads, pace);
    }

    /** 250ms, 2s, 1m, or a bare number of milliseconds. */
    static final class DurationConverter implements CommandLine.ITypeConverter<Duration> {
        @Override
        public Duration convert(String value) {
            Matcher m = DURATION.matcher(value.trim());
            if (!m.matches()) {
                throw new CommandLine.TypeConversionException("'" + value + "' is not a duration such as 250ms, 2s or 1m");
            }
            long n = Long.parseLong(m.group(1));
            String unit = m.group(2) == null ? "ms" : m.group(2);
            return switch (unit) {
                case "s" -> Duration.ofSeconds(n);
                case "m" -> Duration.ofMinutes(n);
                default -> Duration.ofMillis(n);
            };
        }
    }
}
