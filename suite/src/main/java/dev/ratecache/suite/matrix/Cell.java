package dev.ratecache.suite.matrix;

import dev.ratecache.jtl.Sample;
import dev.ratecache.suite.edge.EdgeProduct;
import dev.ratecache.suite.peak.Figure;
import dev.ratecache.suite.spec.EdgeBalance;
import dev.ratecache.suite.spec.FleetLimit;
import dev.ratecache.suite.switches.StackSwitches;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * One measurement: a plan through one configuration of the stack. Built with {@link #of}, whose
 * defaults are the reference experiment's: through both tiers, both rate limits on, no cache, JMeter.
 *
 * <pre>{@code
 * Cell.of(Plan.STRESS, "server-cache").serverCache().build();
 * Cell.of(Plan.STRESS, "direct").direct().build();
 * Cell.of(Plan.LOAD, "library").clientCache().generator(Generator.LIBRARY).build();
 * }</pre>
 *
 * @param name        how reports and --only name it, e.g. {@code stress/server-cache}
 * @param direct      the client talks to the origin itself: no Nginx, no rate limiting
 * @param frontLimit  the front end's per-client rate limit
 * @param backLimit   the back end's rate limit for the app as a whole
 * @param serverCache the front end's edge cache
 * @param clientCache a cache in the client: JMeter's HTTP Cache Manager per user, or the library's
 * @param generator   what sends the traffic
 * @param properties  JMeter properties of this cell beside the plan's sizes (e.g. a flood's rate), which the
 *                    user's -J values still override
 * @param edgeBalance with several edges (--edges N), how this cell spreads requests over them; null: as switched
 * @param appCache    the origin's own cache of /items and /places reads in Redis (origin.app-cache=redis): the origin is
 *                    started in that mode and the suite's Redis runs beside it
 * @param traits      what the cell's kind of matrix adds: e.g. a tiers cell's keys ({@link KeyedTraffic}), a
 *                    fleet cell's edges ({@link Fleet}); none for the plans' cells (the user's switches hold)
 * @param edge        the product whose tiers the cell runs through (nginx, HAProxy, Varnish)
 */
public record Cell(String name, Plan plan, boolean direct, boolean frontLimit, boolean backLimit,
        boolean serverCache, boolean clientCache, Generator generator, Map<String, String> properties,
        EdgeBalance edgeBalance, boolean appCache, List<CellTrait> traits, EdgeProduct edge) {

    /**
     * A cell of --matrix fleet: {@code edges} edges, the per-client limit held across them by
     * {@code strategy}, the edges balanced as the cell's edge balance says.
     */
    public record Fleet(int edges, FleetLimit strategy) implements CellTrait {
        @Override
        public StackSwitches apply(StackSwitches switches) {
            return switches.edges(edges).fleetLimit(strategy);
        }

        /** In words: "3 edges, round robin, per-client limit per-edge". */
        @Override
        public String describe(Cell cell) {
            return edges + " edges, " + (strategy == FleetLimit.CLIENT_HASH ? "each client hashed to one"
                    : cell.edgeBalance() == EdgeBalance.URI_HASH ? "sharded by URI" : "round robin")
                    + ", per-client limit " + strategy;
        }

        /** The keys' figures across the fleet; the cell's keys are its {@link KeyedTraffic}. */
        @Override
        public Figure collect(Cell cell, List<Sample> samples, FleetFallbacks fallbacks) {
            KeyedTraffic keys = cell.trait(KeyedTraffic.class);
            return keys == null ? null
                    : FleetFigures.of(samples, keys, fallbacks == null ? null : fallbacks.fallbacks());
        }
    }

    /**
     * A cell that stands beside a row of a published experiment other than the reference's (which
     * its plans hold): that row's figures, shown beside the cell's as the reference's are.
     *
     * @param source    the experiment, e.g. "seed 001"
     * @param row       the published row, in the write-up's words
     * @param reference its figures, and why ours differ
     */
    public record Published(String source, String row, Reference reference) implements CellTrait {
        @Override
        public StackSwitches apply(StackSwitches switches) {
            return switches;
        }

        @Override
        public String describe(Cell cell) {
            return "beside " + source + "'s published row \"" + row + "\"";
        }
    }

    /**
     * A cell whose back tier balances over {@code hosts} instances of the suite's own origin (round
     * robin), as seed 002's nginx balancer did over its app hosts: the run starts the instances
     * beside the first, each with the same database, pool and Redis.
     */
    public record OriginHosts(int hosts) implements CellTrait {
        public OriginHosts {
            if (hosts < 1) {
                throw new IllegalArgumentException("a cell has at least one origin host: " + hosts);
            }
        }

        @Override
        public StackSwitches apply(StackSwitches switches) {
            return switches;
        }

        @Override
        public String describe(Cell cell) {
            return hosts + (hosts == 1 ? " origin instance" : " origin instances, round robin");
        }
    }

    /**
     * A cell of --matrix db's pool sweep: the suite's origin runs with {@code size} pooled database
     * connections (its --db-pool), restarted when the cell before had another.
     */
    public record Pool(int size) implements CellTrait {
        @Override
        public StackSwitches apply(StackSwitches switches) {
            return switches;
        }

        @Override
        public String describe(Cell cell) {
            return "a pool of " + size + " database connections";
        }
    }

    /** The reference experiment's rows, which are also the default matrix's cell names within a plan. */
    public static final String NO_CACHING = "no-caching";
    public static final String SERVER_CACHE = "server-cache";
    public static final String CLIENT_CACHE = "client-cache";
    public static final String BOTH = "both";
    public static final String DIRECT = "direct";

    public Cell {
        Objects.requireNonNull(plan, "plan");
        Objects.requireNonNull(generator, "generator");
        Objects.requireNonNull(edge, "edge");
        properties = Map.copyOf(properties);
        traits = List.copyOf(traits);
        if (direct && (frontLimit || backLimit || serverCache)) {
            throw new IllegalArgumentException("a direct cell passes no Nginx: no limits, no server cache");
        }
    }

    /** A cell named {@code plan/variant}, with the reference experiment's defaults. */
    public static Builder of(Plan plan, String variant) {
        return new Builder(plan, plan.name() + "/" + variant);
    }

    /** A cell of a set named apart from its plan, e.g. {@code fleet/shared} on the keys plan. */
    public static Builder named(Plan plan, String set, String variant) {
        return new Builder(plan, set + "/" + variant);
    }

    /** Whether the client library's driver sends the traffic instead of JMeter. */
    public boolean library() {
        return generator == Generator.LIBRARY;
    }

    /** The switches for this cell, on top of the ones the user gave for every cell. */
    public StackSwitches apply(StackSwitches base) {
        StackSwitches s = base.copy().frontLimit(frontLimit).backLimit(backLimit).cache(serverCache);
        for (CellTrait t : traits) {
            s = t.apply(s);
        }
        return edgeBalance == null ? s : s.edgeBalance(edgeBalance);
    }

    /** The cell's trait of {@code type}, which its kind of matrix gave it; null when it has none. */
    public <T extends CellTrait> T trait(Class<T> type) {
        return traits.stream().filter(type::isInstance).map(type::cast).findFirst().orElse(null);
    }

    /** This cell under another name, its edges balanced by {@code balance}. */
    public Cell withEdgeBalance(String newName, EdgeBalance balance) {
        return new Cell(newName, plan, direct, frontLimit, backLimit, serverCache, clientCache, generator, properties,
                balance, appCache, traits, edge);
    }

    /** The same cell with the origin's Redis app cache on or off (--app-cache for every cell of a run). */
    public Cell withAppCache(boolean on) {
        return new Cell(name, plan, direct, frontLimit, backLimit, serverCache, clientCache, generator, properties,
                edgeBalance, on, traits, edge);
    }

    /** The same cell through another edge product's tiers (--edge for every cell of a run). */
    public Cell withEdge(EdgeProduct product) {
        return new Cell(name, plan, direct, frontLimit, backLimit, serverCache, clientCache, generator, properties,
                edgeBalance, appCache, traits, product);
    }

    /** The same cell with its property {@code name} (a plan's size, e.g. wrk's duration) set to {@code value}. */
    public Cell withProperty(String name, String value) {
        Map<String, String> changed = new LinkedHashMap<>(properties);
        changed.put(name, value);
        return new Cell(this.name, plan, direct, frontLimit, backLimit, serverCache, clientCache, generator, changed,
                edgeBalance, appCache, traits, edge);
    }

    /** A folder name for the cell: its name with the slash replaced. */
    public String folder() {
        return name.replace('/', '-');
    }

    /**
     * The row of the reference experiment this cell has the shape of: JMeter through both limits
     * with one of the four caching combinations, or straight to the app server.
     */
    public Optional<String> referenceRow() {
        // The reference ran the default product's tiers: another product's cell is not the experiment it published.
        if (library() || appCache || (!direct && edge != EdgeProduct.DEFAULT)) {
            return Optional.empty();
        }
        if (direct) {
            return Optional.of(DIRECT);
        }
        if (!frontLimit || !backLimit) {
            return Optional.empty();
        }
        return Optional.of(serverCache && clientCache ? BOTH : serverCache ? SERVER_CACHE : clientCache ? CLIENT_CACHE
                : NO_CACHING);
    }

    /**
     * The published figure beside this cell: its {@link Published} row's, or the reference
     * experiment's for a cell of this shape, if it measured one.
     */
    public Optional<Reference> reference() {
        Published published = trait(Published.class);
        return published != null ? Optional.of(published.reference()) : referenceRow().map(plan.references()::get);
    }

    /** What the cell measures, in words, for the report. */
    public String describe() {
        StringBuilder words = new StringBuilder(describeStack()).append(appCache ? ", app cache (Redis) on" : "");
        traits.forEach(t -> words.append("; ").append(t.describe(this)));
        return words.toString();
    }

    private String describeStack() {
        // A product that can do everything needs no words: the cells of the suite's default edge read as they always did.
        String through = direct || edge.cannot().isEmpty() ? ""
                : edge.displayName() + " (which cannot " + edge.cannot() + "): ";
        String tool = generator == Generator.WRK ? WrkGenerator.describe(properties)
                : generator == Generator.BOMBARDIER ? BombardierGenerator.describe(properties) : null;
        String sent = tool == null ? "" : tool + " on " + properties.getOrDefault("path", plan.paths().get("path")) + ", ";
        return sent + through + describeTiers();
    }

    private String describeTiers() {
        if (direct) {
            return "straight to the app server: no Nginx, no rate limiting" + (clientCache ? ", client cache" : "");
        }
        if (library()) {
            return "the client library (" + (clientCache ? "its cache on, stale-while-revalidate in the background"
                    : "its cache off") + ", 429/503 retried after Retry-After"
                    + (Boolean.parseBoolean(properties.get(LibraryDriver.PACE_PROPERTY))
                            ? ", paced to the edge's RateLimit" : "") + ") instead of JMeter; front limit "
                    + onOff(frontLimit) + ", back limit " + onOff(backLimit) + ", server cache " + onOff(serverCache);
        }
        return "front limit " + onOff(frontLimit) + ", back limit " + onOff(backLimit)
                + ", server cache " + onOff(serverCache) + ", client cache " + onOff(clientCache)
                + (edgeBalance == null || trait(Fleet.class) != null ? "" : edgeBalance == EdgeBalance.URI_HASH
                        ? ", edges sharded by URI" : ", edges round robin");
    }

    static String onOff(boolean on) {
        return on ? "on" : "off";
    }

    /** Names what differs from the defaults; {@link #build()} checks the combination. */
    public static final class Builder {
        private final Plan plan;
        private final String name;
        private boolean direct;
        private boolean frontLimit = true;
        private boolean backLimit = true;
        private boolean serverCache;
        private boolean clientCache;
        private Generator generator = Generator.JMETER;
        private final Map<String, String> properties = new LinkedHashMap<>();
        private boolean appCache;
        private final List<CellTrait> traits = new ArrayList<>();
        private EdgeBalance edgeBalance;
        private EdgeProduct edge = EdgeProduct.DEFAULT;

        private Builder(Plan plan, String name) {
            this.plan = plan;
            this.name = name;
        }

        /** Straight to the app server: no Nginx, so no rate limits and no server cache. */
        public Builder direct() {
            direct = true;
            frontLimit = false;
            backLimit = false;
            return this;
        }

        public Builder frontLimit(boolean on) {
            frontLimit = on;
            return this;
        }

        public Builder backLimit(boolean on) {
            backLimit = on;
            return this;
        }

        public Builder serverCache() {
            return serverCache(true);
        }

        public Builder serverCache(boolean on) {
            serverCache = on;
            return this;
        }

        public Builder clientCache() {
            return clientCache(true);
        }

        public Builder clientCache(boolean on) {
            clientCache = on;
            return this;
        }

        public Builder generator(Generator generator) {
            this.generator = generator;
            return this;
        }

        /** Driven by {@code generator} with its {@code parameters} (as properties): wrk's or bombardier's, as published. */
        public Builder drivenBy(Generator generator, Map<String, String> parameters) {
            properties.putAll(parameters);
            return generator(generator);
        }

        /** A JMeter property of this cell, e.g. {@code property("rate", "200")}. */
        public Builder property(String name, String value) {
            properties.put(name, value);
            return this;
        }

        /** The origin's Redis app cache for /items and /places reads. */
        public Builder appCache() {
            appCache = true;
            return this;
        }

        /** A cell of --matrix tiers: its identity switches and keys. */
        public Builder keys(KeyedTraffic traffic) {
            traits.add(traffic);
            return this;
        }

        /** What a kind of matrix adds to the cell: its own {@link CellTrait}, e.g. a quotas cell's quota. */
        public Builder trait(CellTrait trait) {
            traits.add(trait);
            return this;
        }

        /** With several edges, how this cell spreads its requests over them, whatever the user switched. */
        public Builder edgeBalance(EdgeBalance balance) {
            edgeBalance = balance;
            return this;
        }

        /** A cell of --matrix fleet: its edges, their balance and the fleet's strategy. */
        public Builder fleet(Fleet setup, EdgeBalance balance) {
            traits.add(setup);
            edgeBalance = balance;
            return this;
        }

        /** A cell of --matrix db's pool sweep: the origin's pool size. */
        public Builder pool(Pool size) {
            traits.add(size);
            return this;
        }

        /** Beside a row of another experiment's published table than the reference's. */
        public Builder published(Published row) {
            traits.add(row);
            return this;
        }

        /** Over {@code hosts} instances of the suite's origin behind the back tier's balancer. */
        public Builder originHosts(int hosts) {
            traits.add(new OriginHosts(hosts));
            return this;
        }

        /** Through another edge product's tiers than nginx's. */
        public Builder edge(EdgeProduct product) {
            edge = product;
            return this;
        }

        public Cell build() {
            return new Cell(name, plan, direct, frontLimit, backLimit, serverCache, clientCache, generator, properties,
                    edgeBalance, appCache, traits, edge);
        }
    }
}
