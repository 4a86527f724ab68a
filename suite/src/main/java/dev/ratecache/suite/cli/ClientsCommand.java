package dev.ratecache.suite.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ratecache.proc.ManagedProcess;
import dev.ratecache.suite.Repo;
import dev.ratecache.suite.edge.EdgeProduct;
import dev.ratecache.suite.nginx.WorkerAccess;
import dev.ratecache.suite.stack.Stack;
import dev.ratecache.suite.stack.StackPorts;
import dev.ratecache.suite.switches.AddressCeiling;
import dev.ratecache.suite.switches.LimitKey;
import dev.ratecache.suite.switches.LimitMode;
import dev.ratecache.suite.switches.StackSwitches;
import dev.ratecache.suite.switches.WholeNumber;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/**
 * Many clients, one key: N clients share one API key's limit at the edge, each sending at a
 * multiple of its share, and meet the edge's 429s by four strategies in turn (retry at once,
 * exponential backoff with full jitter, Retry-After alone, the library's pacing to
 * RateLimit-Policy). For each: the 429s, the goodput, Jain's fairness index over the clients'
 * goodput, and the requests that reached the origin by its own counters.
 *
 * <p>Each strategy's window closes alike: no request starts after {@code --seconds}, and those
 * started may finish, retries included, within {@link #DRAIN_SECONDS}; goodput is their successes
 * per second of the window, so that what a strategy holds at the window's end is neither lost nor
 * given an advantage.
 */
@Command(name = "clients", mixinStandardHelpOptions = true, sortOptions = false, usageHelpAutoWidth = true,
        description = {
            "Many clients, one key: starts the origin and the nginx tiers with one API key's limit (X-Api-Key, --rate"
                    + " r/s, --burst, 429 with Retry-After, no cache), then runs each strategy for --seconds: --clients"
                    + " clients (a thread and a client library instance each) send that key at --share-factor times"
                    + " their share of the limit. Prints each strategy's attempts, 429s, goodput, Jain's index and"
                    + " origin requests, and writes them to results/clients-<timestamp>/clients.md and clients.json.",
            "",
            // Laid out by hand, each within the narrowest (80-column) help.
            "  ./run-tests.sh clients          10 clients, 3x their share of 20 r/s",
            "  ./run-tests.sh clients --clients 50 --rate 100",
            "  ./run-tests.sh clients --strategy backoff --strategy pace",
            ""})
public final class ClientsCommand implements Callable<Integer>, WholeNumber.Flags {
    private static final WholeNumber CLIENTS = WholeNumber.of("--clients", 2, 200);
    private static final WholeNumber RATE = WholeNumber.of("--rate", 1, 1000, "requests/s");
    private static final WholeNumber BURST = WholeNumber.of("--burst", 0, 10_000);
    private static final WholeNumber FACTOR = WholeNumber.of("--share-factor", 1, 100);
    private static final WholeNumber SECONDS = WholeNumber.of("--seconds", 1, 3600, "seconds");
    private static final WholeNumber RETRIES = WholeNumber.of("--retries", 0, 100);
    /** The strategies, in the order they run and are listed. */
    public static final List<String> STRATEGIES = List.of("immediate", "backoff", "retry-after", "pace");
    /** What each strategy does, as the report says it. */
    static final Map<String, String> DESCRIPTIONS = Map.of(
            "immediate", "retry at once",
            "backoff", "exponential backoff, full jitter (base 100 ms, cap 2 s)",
            "retry-after", "wait exactly Retry-After",
            "pace", "the library: paceToPolicy(true), retries after Retry-After");
    /** The key header the edge's limit is keyed on; each strategy has a key (and so a bucket) of its own. */
    static final String KEY_HEADER = "X-Api-Key";
    /** The origin's endpoint every request asks for: 10 ms, never stored, so every admitted request reaches the origin. */
    static final String ENDPOINT = "shared";
    /** The path each client asks once, without the key, before its clock starts: counted apart from {@link #ENDPOINT}. */
    static final String WARM_UP = "warm-up";
    /**
     * How long the requests started in the window may take to finish: longer than any strategy's
     * retries take (backoff's three waits of at most 2 s each, Retry-After's three of 1 s), so that
     * none is cut for want of time.
     */
    static final int DRAIN_SECONDS = 10;

    @Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--clients", paramLabel = "N", description = "Clients sharing the one key. Default: ${DEFAULT-VALUE}.")
    int clients = 10;

    @Option(names = "--rate", paramLabel = "R", description = "The key's limit at the edge, requests/s. Default: ${DEFAULT-VALUE}.")
    int rate = 20;

    @Option(names = "--burst", paramLabel = "N", description = "The limit's burst (nginx's limit_req burst, nodelay). Default: ${DEFAULT-VALUE}.")
    int burst = 10;

    @Option(names = "--share-factor", paramLabel = "F",
            description = "Each client sends F times its share of the limit (rate / clients). Default: ${DEFAULT-VALUE}.")
    int shareFactor = 3;

    @Option(names = "--seconds", paramLabel = "S", description = "How long each strategy runs. Default: ${DEFAULT-VALUE}.")
    int seconds = 20;

    @Option(names = "--retries", paramLabel = "N", description = "Retries of a 429 per request, every strategy. Default: ${DEFAULT-VALUE}.")
    int retries = 3;

    @Option(names = "--strategy", paramLabel = "NAME",
            description = "Run only these (repeatable): immediate, backoff, retry-after, pace. Default: all four.")
    List<String> strategies = new ArrayList<>();

    @Option(names = "--results", paramLabel = "DIR",
            description = "Where the run folder (clients-<timestamp>/) goes. Default: results/ in the checkout.")
    Path results;

    @picocli.CommandLine.Mixin
    DryRun dryRun = new DryRun();

    @Override
    public Map<String, WholeNumber> wholeNumbers() {
        return WholeNumber.byFlag(CLIENTS, RATE, BURST, FACTOR, SECONDS, RETRIES);
    }

    static Path driverJar() {
        return Repo.root().resolve("client/target/client-driver.jar");
    }

    private List<String> chosen() {
        return strategies.isEmpty() ? STRATEGIES : STRATEGIES.stream().filter(strategies::contains).toList();
    }

    @Override
    public Integer call() throws Exception {
        List<String> problems = new ArrayList<>();
        CLIENTS.check(problems, clients);
        RATE.check(problems, rate);
        BURST.check(problems, burst);
        FACTOR.check(problems, shareFactor);
        SECONDS.check(problems, seconds);
        RETRIES.check(problems, retries);
        for (String s : strategies) {
            if (!STRATEGIES.contains(s)) {
                problems.add("--strategy must be one of " + String.join(", ", STRATEGIES) + " (got '" + s + "')");
            }
        }
        RunFolders.notAFolder(RunFolders.results(results), "--results").ifPresent(problems::add);
        Refuse.ifAny(spec, problems);
        List<String> machine = new ArrayList<>();
        if (!Files.isRegularFile(driverJar())) {
            machine.add("the client library's driver is not built (" + driverJar() + " is missing): run ./mvnw -B package -DskipTests");
        }
        WorkerAccess.problem(RunFolders.results(results), "--results").ifPresent(machine::add);
        Refuse.ifAny(spec, machine);
        PrintWriter out = spec.commandLine().getOut();
        if (dryRun.on) {
            return dryRun.report(out, List.of("the nginx tiers with one key's limit of " + rate + " r/s (burst " + burst
                    + "), then " + String.join(", ", chosen()) + " for " + seconds + " s each: " + clients
                    + " clients at " + shareFactor + "x their share"));
        }
        Path runDir = RunFolders.next(RunFolders.results(results).toAbsolutePath().normalize(), "clients-");
        Files.createDirectories(runDir);
        ObjectNode report = run(runDir, out);
        Files.writeString(runDir.resolve("clients.md"), markdown(report));
        new ObjectMapper().writerWithDefaultPrettyPrinter().writeValue(runDir.resolve("clients.json").toFile(), report);
        out.println();
        out.print(table(report));
        out.println();
        out.println(goal(report));
        out.println("Written: " + runDir.resolve("clients.md") + " and clients.json");
        out.flush();
        return 0;
    }

    private StackSwitches switches(Path tiers) {
        return new StackSwitches().limitKey(LimitKey.parse("header:" + KEY_HEADER)).tiers(tiers)
                .addressCeiling(AddressCeiling.OFF).frontRate(1).frontBurst(0).frontMode(LimitMode.NODELAY)
                .retryAfter(1).rejectStatus(429).backLimit(false).cache(false);
    }

    static String key(String strategy) {
        return "team-" + strategy;
    }

    private ObjectNode run(Path runDir, PrintWriter out) throws IOException, InterruptedException {
        Path tiers = runDir.resolve("tiers.txt");
        // One tier: every strategy's key has the same limit and a bucket of its own, so none inherits another's.
        Files.writeString(tiers, "# name rate burst mode keys\nteam " + rate + " " + burst + " nodelay "
                + String.join(",", STRATEGIES.stream().map(ClientsCommand::key).toList()) + "\n");
        double perClient = (double) rate * shareFactor / clients;
        ObjectNode report = settings(perClient);
        ArrayNode rows = report.putArray("strategies");
        List<String> originArgs = List.of("--origin.endpoints." + ENDPOINT + ".delay=10ms",
                "--origin.endpoints." + ENDPOINT + ".cache-control=no-store");
        try (Stack stack = Stack.start(EdgeProduct.DEFAULT, switches(tiers), StackPorts.free(), runDir.resolve("stack"),
                new OriginThreads().threads(), originArgs)) {
            for (String strategy : chosen()) {
                out.println("clients: " + strategy + " (" + DESCRIPTIONS.get(strategy) + "), " + seconds + " s");
                out.flush();
                long before = stack.origin().counters().requests(ENDPOINT);
                Path json = runDir.resolve(strategy + ".json");
                List<String> command = List.of(ManagedProcess.javaBinary(), "-XX:+UseSerialGC", "-cp",
                        driverJar().toString(), "dev.ratecache.client.driver.ManyClients",
                        "--url", stack.frontUri().toString(), "--path", "/" + ENDPOINT,
                        "--header", KEY_HEADER + ":" + key(strategy), "--clients", String.valueOf(clients),
                        "--rate", String.valueOf(perClient), "--seconds", String.valueOf(seconds),
                        "--drain", DRAIN_SECONDS + "s",
                        "--strategy", strategy, "--retries", String.valueOf(retries), "--warm-up", "/" + WARM_UP,
                        "--json", json.toString());
                Path log = runDir.resolve(strategy + ".out");
                try (ManagedProcess driver = ManagedProcess.start("many-clients", command, runDir, log)) {
                    ManagedProcess.Finished done = driver.waitMeasured(Duration.ofSeconds(seconds + DRAIN_SECONDS + 120L));
                    if (done.exitCode() != 0 || !Files.isRegularFile(json)) {
                        throw new IOException("the many-clients driver (" + strategy + ") exited with code "
                                + done.exitCode() + ": see " + log);
                    }
                }
                long reached = stack.origin().counters().requests(ENDPOINT) - before;
                ObjectNode row = (ObjectNode) new ObjectMapper().readTree(json.toFile());
                row.put("originRequests", reached);
                row.put("description", DESCRIPTIONS.get(strategy));
                rows.add(row);
            }
        }
        return report;
    }

    private ObjectNode settings(double perClient) {
        ObjectNode report = new ObjectMapper().createObjectNode();
        report.put("clients", clients);
        report.put("rate", rate);
        report.put("burst", burst);
        report.put("shareFactor", shareFactor);
        report.put("ratePerClient", perClient);
        report.put("seconds", seconds);
        report.put("drainSeconds", DRAIN_SECONDS);
        report.put("retries", retries);
        report.put("keyHeader", KEY_HEADER);
        return report;
    }

    /** The strategies' rows by name. */
    public static Map<String, JsonNode> rows(JsonNode report) {
        Map<String, JsonNode> rows = new LinkedHashMap<>();
        report.get("strategies").forEach(r -> rows.put(r.get("strategy").asText(), r));
        return rows;
    }

    /** The comparison's table (markdown), from a run's clients.json; the docs quote it as it is. */
    public static String table(JsonNode report) {
        Map<String, JsonNode> rows = rows(report);
        JsonNode backoff = rows.get("backoff");
        StringBuilder t = new StringBuilder("""
                | strategy | attempts | 429s | 429s / backoff's | goodput (r/s) | Jain's index | origin requests | answered in the drain | gave up |
                | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |
                """);
        for (JsonNode r : rows.values()) {
            String ratio = backoff == null || backoff.get("rejected").asLong() == 0 ? ""
                    : String.format(Locale.ROOT, "%.3f", r.get("rejected").asDouble() / backoff.get("rejected").asDouble());
            t.append(String.format(Locale.ROOT, "| %s (%s) | %d | %d | %s | %.2f | %.3f | %d | %d | %d |%n",
                    r.get("strategy").asText(), r.get("description").asText(), r.get("attempts").asLong(),
                    r.get("rejected").asLong(), ratio, r.get("goodputPerSec").asDouble(), r.get("jain").asDouble(),
                    r.get("originRequests").asLong(), r.get("successesInDrain").asLong(), r.get("gaveUp").asLong()));
        }
        return t.toString();
    }

    /** The settings in one sentence. */
    public static String setup(JsonNode report) {
        return String.format(Locale.ROOT, "%d clients share one key (%s) limited to %d r/s, burst %d (nodelay, 429 with"
                        + " Retry-After: 1); each starts %.2f requests/s (%dx its share) for %d s per strategy, and retries a"
                        + " 429 up to %d times; a request started in those %d s may finish, retries included, within %d s"
                        + " after them. The cache is off, so every admitted request reaches the origin.",
                report.get("clients").asInt(), report.get("keyHeader").asText(), report.get("rate").asInt(),
                report.get("burst").asInt(), report.get("ratePerClient").asDouble(), report.get("shareFactor").asInt(),
                report.get("seconds").asInt(), report.get("retries").asInt(), report.get("seconds").asInt(),
                report.get("drainSeconds").asInt());
    }

    /** Whether the library met the goal: at most 0.05 of backoff's 429s, with goodput no lower. */
    public static String goal(JsonNode report) {
        Map<String, JsonNode> rows = rows(report);
        JsonNode pace = rows.get("pace");
        JsonNode backoff = rows.get("backoff");
        if (pace == null || backoff == null) {
            return "goal: not measured (needs both backoff and pace)";
        }
        double rejected = backoff.get("rejected").asLong() == 0 ? Double.NaN
                : pace.get("rejected").asDouble() / backoff.get("rejected").asDouble();
        double goodput = pace.get("goodputPerSec").asDouble() / backoff.get("goodputPerSec").asDouble();
        boolean met = rejected <= 0.05 && goodput >= 1;
        return String.format(Locale.ROOT, "goal (pace's 429s at most 0.05 of backoff's, goodput no lower): %s;"
                + " 429s %.3f of backoff's, goodput %.3f of backoff's", met ? "met" : "not met", rejected, goodput);
    }

    static String markdown(JsonNode report) {
        return "# Many clients, one key\n\n" + setup(report) + "\n\n" + table(report) + "\n" + goal(report) + "\n\n"
                + "Goodput: the successes of the requests started in the window, per second of the window (those"
                + " answered in the drain after it included, as they are in the origin's count); Jain's index:"
                + " (sum x)^2 / (n sum x^2) over the clients' goodput (1: all alike); origin requests: the origin's own"
                + " counter over the strategy's run; gave up: requests that met a 429 after their last retry, or whose"
                + " next retry would have ended after the drain.\n";
    }
}
