package dev.ratecache.suite.matrix;

import dev.ratecache.suite.Repo;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Everything the suite knows about a JMeter plan: its file, the paths it requests, how many
 * requests a user sends per loop, its sizes per profile, how long its cells take, and the
 * reference experiment's figures for it. A new plan is one more constant here.
 *
 * @param name            how cells and reports name it (the file name without .jmx)
 * @param fileName        the file in jmeter/plans/, or null for a user's own plan ({@code file} holds it)
 * @param userFile        a user's own plan file, or null for one of the suite's plans
 * @param paths           the JMeter property of each path the plan requests, and its path, in the
 *                        order a user requests them (the library's driver sends the same); empty when unknown
 * @param requestsPerLoop requests one user sends per loop; 0 when the plan's shape is unknown
 * @param sizes           the JMeter properties that size the plan, per profile
 * @param estimate        seconds a cell of the default profile takes, for the time-left guess
 * @param references      the reference experiment's figures, by {@link Cell#referenceRow() row}
 * @param libraryRow      whether the client library's driver can send the same traffic (a closed
 *                        model over fixed paths: users x loops)
 * @param counts          the plan's properties that take a whole number, beside {@link #COMMON_COUNTS}
 * @param samples         the sample count of every run when it does not depend on users x loops (a
 *                        replay's: one per scheduled request); 0 otherwise
 */
public record Plan(String name, String fileName, Path userFile, Map<String, String> paths, int requestsPerLoop,
        Map<Profile, Map<String, String>> sizes, Estimate estimate, Map<String, Reference> references,
        boolean libraryRow, List<String> counts, long samples) {

    /** Whole-number properties every plan of the suite reads: where to connect, and how long to wait. */
    public static final List<String> COMMON_COUNTS = List.of("port", "connect_timeout", "response_timeout", "think_time");

    /** Seconds per cell of the default profile: the reference's throughput at its sizes, plus start-up. */
    public record Estimate(double noCache, double serverCache, double clientCache, double direct) {
        static final Estimate UNKNOWN = new Estimate(30, 30, 30, 30);

        double seconds(Cell cell) {
            return cell.direct() ? direct : cell.serverCache() ? serverCache : cell.clientCache() ? clientCache : noCache;
        }
    }

    /** 100 users x 10 loops on /hare: the rate limits under a burst. */
    public static final Plan STRESS = new Plan("stress", "stress.jmx", null, Map.of("path", "/hare"), 1,
            Map.of(Profile.QUICK, Map.of("users", "100", "loops", "2", "rampup", "1"),
                    Profile.DEFAULT, Map.of("users", "100", "loops", "10", "rampup", "5")),
            new Estimate(45, 12, 14, 12), stressReferences(), true, List.of("users", "loops", "rampup"), 0);

    /** 10 users x 10 loops over /snail, /hare and /tortoise in random order: what caching improves. */
    public static final Plan LOAD = new Plan("load", "load.jmx", null,
            ordered("path1", "/snail", "path2", "/hare", "path3", "/tortoise"), 3,
            Map.of(Profile.QUICK, Map.of("users", "5", "loops", "4", "rampup", "0"),
                    Profile.DEFAULT, Map.of("users", "10", "loops", "10", "rampup", "0")),
            new Estimate(80, 20, 35, 80), loadReferences(), true, List.of("users", "loops", "rampup"), 0);

    /** An open-model flood at a target rate: for the GUI and the user's own runs. */
    public static final Plan FLOOD = new Plan("flood", "flood.jmx", null, Map.of("path", "/hare"), 0,
            // The protection matrix's shape: straight to the rate, then held.
            Map.of(Profile.QUICK, Map.of("ramp", "1", "hold", "3"), Profile.DEFAULT, Map.of("ramp", "1", "hold", "10")),
            new Estimate(20, 20, 20, 20), Map.of(), false, List.of("rate", "ramp", "hold", "drain", "sources"), 0);

    /**
     * Users reading and writing items of the origin's /items API, ids skewed (20 hot ids by default),
     * 5 % writes: how many reads a cache answers with an item older than an acknowledged write. One
     * request per loop (a GET or a PUT). Not in the reference's matrix (the reference measured no
     * writes) and not for the library's driver (it sends fixed paths only). The estimate is a guess
     * from the other plans (JMeter's start-up plus 2000 quick requests), not yet measured.
     */
    public static final Plan HOTSET = new Plan("hotset", "hotset.jmx", null, Map.of(), 1,
            Map.of(Profile.QUICK, Map.of("users", "10", "loops", "20", "rampup", "0"),
                    Profile.DEFAULT, Map.of("users", "20", "loops", "100", "rampup", "1")),
            new Estimate(40, 20, 20, 20), Map.of(), false,
            List.of("users", "loops", "rampup", "items", "hot_ids", "hot_share", "write_share", "seed"), 0);

    /**
     * API keys over tiers, each at its own steady rate (open model), its key in a header; label
     * TIER/KEY. No request count per loop: the arrivals follow the keys' rates for hold seconds. The
     * keys and their rates are the {@code keys} property, which --matrix tiers writes per cell.
     */
    public static final Plan KEYS = new Plan("keys", "keys.jmx", null, Map.of("path", "/hare"), 0,
            Map.of(Profile.QUICK, Map.of("hold", "4", "drain", "3"), Profile.DEFAULT, Map.of("hold", "10", "drain", "5")),
            new Estimate(25, 25, 25, 25), Map.of(), false, List.of("hold", "drain"), 0);

    /** The suite's own plans, by name. */
    public static final List<Plan> BUILT_IN = List.of(STRESS, LOAD, FLOOD, HOTSET, KEYS);

    /** The plans of the reference experiment's matrix. */
    public static final List<Plan> REFERENCE = List.of(STRESS, LOAD);

    /** A user's own plan: nothing is known of its shape, so no sizes, no sample count, no reference. */
    public static Plan custom(Path file) {
        String name = file.getFileName().toString().replaceFirst("\\.jmx$", "");
        return new Plan(name, null, file.toAbsolutePath(), Map.of(), 0, Map.of(), Estimate.UNKNOWN, Map.of(), false, List.of(), 0);
    }

    /**
     * A replay of an access log (./run-tests.sh replay): jmeter/plans/replay.jmx on {@code schedule},
     * which holds {@code requests} rows spread over {@code seconds}. {@code threads} is the most
     * requests waiting or in flight at once, so that a late answer never holds back the next start.
     */
    public static Plan replay(Path schedule, long requests, double seconds, int threads) {
        return replay(schedule, requests, seconds, threads, null);
    }

    /** As above, sending each row's key (the schedule's key column) in header {@code keyHeader} (null: none). */
    public static Plan replay(Path schedule, long requests, double seconds, int threads, String keyHeader) {
        Map<String, String> props = new java.util.LinkedHashMap<>(Map.of("schedule", schedule.toAbsolutePath().toString(),
                "threads", String.valueOf(threads)));
        if (keyHeader != null) {
            props.put("key_header", keyHeader);
        }
        props = Map.copyOf(props);
        // The plan starts its clock 2 s after JMeter is up (lead_ms), then follows the schedule.
        double cell = seconds + 8;
        return new Plan("replay", "replay.jmx", null, Map.of(), 0, Map.of(Profile.QUICK, props, Profile.DEFAULT, props),
                new Estimate(cell, cell, cell, cell), Map.of(), false, List.of("threads", "lead_ms"), requests);
    }

    /**
     * The plan of an experiment that drove its load with another tool than JMeter (wrk): no .jmx
     * file, only the one path it asked for; the tool's parameters are its cells' properties.
     * {@code cellSeconds} is how long a cell takes, start-up included.
     */
    public static Plan ofPath(String name, String path, double cellSeconds) {
        return new Plan(name, null, null, Map.of("path", path), 0, Map.of(),
                new Estimate(cellSeconds, cellSeconds, cellSeconds, cellSeconds), Map.of(), false, List.of(), 0);
    }

    /** One of the suite's own plans. */
    public static Optional<Plan> builtIn(String name) {
        return BUILT_IN.stream().filter(p -> p.name.equals(name)).findFirst();
    }

    public static List<String> builtInNames() {
        return BUILT_IN.stream().map(Plan::name).toList();
    }

    /** Whether any of the suite's plans reads property {@code name} as a whole number. */
    public static boolean isCount(String name) {
        return COMMON_COUNTS.contains(name) || BUILT_IN.stream().anyMatch(p -> p.counts.contains(name));
    }

    /** Whether property {@code name} is a share in percent (0 to 100) in one of the suite's plans. */
    public static boolean isPercent(String name) {
        return PERCENTS.contains(name);
    }

    /** hotset.jmx's shares: the hot ids' share of requests, and the writes'. */
    static final List<String> PERCENTS = List.of("hot_share", "write_share");

    /** The .jmx file; the suite's plans resolve in the checkout only when asked. */
    public Path file() {
        return userFile != null ? userFile : Repo.plans().resolve(fileName);
    }

    /**
     * The defaults the plan's file gives its properties, {@code ${__P(name,default)}}: what JMeter
     * runs with where the suite sets nothing, read from the file so that no copy of them can differ.
     */
    public Map<String, String> declaredDefaults() throws IOException {
        Map<String, String> defaults = new LinkedHashMap<>();
        Matcher m = DECLARED_DEFAULT.matcher(Files.readString(file()));
        while (m.find()) {
            defaults.putIfAbsent(m.group(1), m.group(2));
        }
        return defaults;
    }

    private static final Pattern DECLARED_DEFAULT = Pattern.compile("\\$\\{__P\\(([\\w.]+),([^)]*)\\)}");

    /** The JMeter properties that size the plan for {@code profile} (full has the default's sizes). */
    public Map<String, String> sizes(Profile profile) {
        return sizes.getOrDefault(profile == Profile.FULL ? Profile.DEFAULT : profile, Map.of());
    }

    /** The sample count a run must produce: 0 when the plan's shape is unknown. */
    public long expectedSamples(Map<String, String> properties) {
        if (samples > 0) {
            return samples;
        }
        try {
            return requestsPerLoop * Long.parseLong(properties.getOrDefault("users", "0"))
                    * Long.parseLong(properties.getOrDefault("loops", "0"));
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    /** Whether the reference experiment also measured this plan straight to the app server. */
    public boolean hasDirectReference() {
        return references.containsKey(Cell.DIRECT);
    }

    private static Map<String, String> ordered(String... keyValues) {
        Map<String, String> map = new LinkedHashMap<>();
        for (int i = 0; i < keyValues.length; i += 2) {
            map.put(keyValues[i], keyValues[i + 1]);
        }
        return java.util.Collections.unmodifiableMap(map);
    }

    private static Map<String, Reference> stressReferences() {
        return Map.of(
                Cell.DIRECT, Reference.of(39, 0,
                        "The reference app server was Vert.x as 10 single-threaded instances; ours is one Tomcat with"
                                + " 10 request threads on loopback, so its capacity on /hare is about 10 / 0.1 s ="
                                + " 100 responses/s."),
                Cell.NO_CACHING, Reference.of(23, 54,
                        "Every request reaches the back end's limit (10 r/s, burst 50 for the app as a whole): what"
                                + " exceeds the 50 queued is rejected. Rejected users come back at once, so throughput"
                                + " and the rejected share depend on how fast JMeter loops, which on loopback is far"
                                + " faster than the reference's network."),
                Cell.BOTH, Reference.of(193, 0,
                        "Most requests never leave JMeter (each user's own cache answers them); the rest are edge"
                                + " hits. Throughput is then JMeter's own loop speed, which depends on the machine."),
                Cell.SERVER_CACHE, Reference.of(99.3, 0,
                        "The edge cache answers all but one request per 3 s, so the front end's 100 r/s per-client"
                                + " limit is what sets the pace, as in the reference."),
                Cell.CLIENT_CACHE, Reference.of(99.5, 0,
                        "Each user's first request per 3 s goes out; the front end's 100 r/s per-client limit queues"
                                + " them, as in the reference."));
    }

    private static Map<String, Reference> loadReferences() {
        String appServer = "The reference app server spread requests over 10 single-threaded instances, so a"
                + " quick /hare could wait behind a 5 s /snail; ours has one pool of 10 threads for 10 users,"
                + " so nothing waits behind a slow call.";
        return Map.of(
                Cell.NO_CACHING, new Reference(1.4, 0, 6874.0, 104.0, 19069.0, appServer
                        + " Without caching every request pays its endpoint's delay, so the mean is close to the"
                        + " average of 0.1 s, 2 s and 5 s."),
                Cell.BOTH, new Reference(16.9, 0, 418.0, 0.0, 12997.0, appServer),
                Cell.SERVER_CACHE, new Reference(20, 0, 377.0, 2.0, 12005.0, appServer
                        + " The edge cache is shared by all users, so each URL is fetched once per freshness lifetime."),
                Cell.CLIENT_CACHE, new Reference(9.2, 0, 857.0, 0.0, 14988.0, appServer
                        + " JMeter's cache is per user: each user pays its own first request to every URL."));
    }
}
