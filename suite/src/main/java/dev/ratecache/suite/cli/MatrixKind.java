package dev.ratecache.suite.cli;

import dev.ratecache.suite.edge.Capability;
import dev.ratecache.suite.edge.EdgeProduct;
import dev.ratecache.suite.kinds.attacks.AttackCells;
import dev.ratecache.suite.kinds.attacks.AttackPromise;
import dev.ratecache.suite.kinds.attacks.AttacksSection;
import dev.ratecache.suite.kinds.db.DbCells;
import dev.ratecache.suite.kinds.db.DbSection;
import dev.ratecache.suite.kinds.edges.EdgeCells;
import dev.ratecache.suite.kinds.edges.EdgePromise;
import dev.ratecache.suite.kinds.edges.EdgesSection;
import dev.ratecache.suite.kinds.faults.FaultCells;
import dev.ratecache.suite.kinds.faults.FaultPromise;
import dev.ratecache.suite.kinds.faults.FaultsSection;
import dev.ratecache.suite.kinds.fleet.FleetCells;
import dev.ratecache.suite.kinds.fleet.FleetPromise;
import dev.ratecache.suite.kinds.fleet.FleetSection;
import dev.ratecache.suite.kinds.quotas.QuotaCells;
import dev.ratecache.suite.kinds.quotas.QuotaPromise;
import dev.ratecache.suite.kinds.quotas.QuotasSection;
import dev.ratecache.suite.kinds.tiers.TierCells;
import dev.ratecache.suite.kinds.tiers.TiersSection;
import dev.ratecache.suite.matrix.Cell;
import dev.ratecache.suite.matrix.CellResult;
import dev.ratecache.suite.matrix.KeyedTraffic;
import dev.ratecache.suite.matrix.Matrix;
import dev.ratecache.suite.matrix.Plan;
import dev.ratecache.suite.origin.OriginDatabase;
import dev.ratecache.suite.predict.CellPrediction;
import dev.ratecache.suite.predict.DbPrediction;
import dev.ratecache.suite.predict.FleetPrediction;
import dev.ratecache.suite.predict.Predictor;
import dev.ratecache.suite.report.BackLimitPromise;
import dev.ratecache.suite.report.Check;
import dev.ratecache.suite.report.ReportSection;
import dev.ratecache.suite.spec.Quota;
import dev.ratecache.suite.spec.StackSpec;
import dev.ratecache.suite.switches.LimitKey;
import dev.ratecache.suite.switches.LimitMode;
import dev.ratecache.suite.switches.LimitTier;
import dev.ratecache.suite.switches.StackSwitches;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The sets of cells --matrix chooses from, each a plug-in of the run: its cells, the defaults it
 * gives switches the user left alone, how the model predicts them, the checks it makes by itself
 * and the sections it adds to the report. The command asks the kind; it holds no branch per kind.
 */
enum MatrixKind {
    DEFAULT {
        @Override
        List<Cell> cells(Input in) {
            return Matrix.reference(in.plans());
        }
    },
    FULL {
        @Override
        List<Cell> cells(Input in) {
            return Matrix.full(in.plans());
        }
    },
    /** The flood at 2x, 5x and 10x, from one address and from many: the back limit's promise, checked. */
    PROTECTION {
        @Override
        List<Cell> cells(Input in) {
            suitePlansOnly(in, "floods with the suite's flood plan");
            StackSwitches s = in.switches();
            return Matrix.protection(s.frontRate(), s.frontLimit(), s.backLimit(), in.given("--cache") && s.cache());
        }

        @Override
        List<Check.Outcome> checks(List<CellResult> cells, StackSpec limits) {
            return BackLimitPromise.of(limits).check(cells);
        }
    },
    /** The hotset plan under each way of caching it; --app-cache picks its cells with or without Redis. */
    CACHES {
        @Override
        List<Cell> cells(Input in) {
            suitePlansOnly(in, "runs the suite's hotset plan on /items");
            return Matrix.caches();
        }

        @Override
        boolean cellsChooseAppCache() {
            return true;
        }
    },
    TIERS {
        @Override
        List<Cell> cells(Input in) {
            suitePlansOnly(in, "sends API keys with the suite's keys plan");
            List<LimitTier> tiers = in.switches().limitTiers();
            return TierCells.of(tiers.isEmpty() ? KeyedTraffic.defaultTiers() : tiers,
                    tiers.isEmpty() ? null : in.switches().tiersFile(), keyHeader(in));
        }

        @Override
        List<ReportSection> sections(List<CellResult> cells, List<Check.Outcome> checks,
                Map<String, CellPrediction> predictions, StackSpec limits) {
            return TiersSection.of(cells, predictions);
        }
    },
    /**
     * One per-client limit across several edges. Its cells set --fleet-limit and --edge-balance
     * themselves, so the user's are refused rather than silently overridden; per-edge breaks the
     * promise, which is what it shows.
     */
    FLEET {
        @Override
        List<Cell> cells(Input in) {
            suitePlansOnly(in, "sends API keys with the suite's keys plan");
            refuseOwn(in, "runs each strategy and balance in a cell of its own", "--fleet-limit", "--edge-balance");
            StackSwitches s = in.switches();
            List<LimitTier> tiers = s.limitTiers();
            return FleetCells.of(tiers.isEmpty() ? KeyedTraffic.fleetTiers() : tiers,
                    tiers.isEmpty() ? null : s.tiersFile(), keyHeader(in),
                    s.edges() > 1 ? s.edges() : Matrix.FLEET_EDGES);
        }

        @Override
        boolean cellsChooseBalance() {
            return true;
        }

        @Override
        List<Check.Outcome> checks(List<CellResult> cells, StackSpec limits) {
            return FleetPromise.check(cells);
        }

        @Override
        List<ReportSection> sections(List<CellResult> cells, List<Check.Outcome> checks,
                Map<String, CellPrediction> predictions, StackSpec limits) {
            return FleetSection.of(cells, predictions);
        }

        @Override
        Predictor.Model model() {
            return FleetPrediction.MODEL;
        }
    },
    /**
     * A quota per key across the edges, its window compressed for the run (600/60s unless --quota
     * says): each window mode's cells set --quota-window and the keys themselves, so the user's are
     * refused rather than silently overridden.
     */
    QUOTAS {
        @Override
        List<Cell> cells(Input in) {
            suitePlansOnly(in, "sends API keys with the suite's keys plan");
            refuseOwn(in, "runs each window mode with keys of its own", "--quota-window", "--tiers", "--limit-scope");
            if (!in.edge().capabilities().contains(Capability.QUOTA)) {
                throw new IllegalArgumentException("--matrix quotas counts each quota in nginx's Lua, which " + in.edge()
                        + " has not got: drop --edge " + in.edge());
            }
            StackSwitches s = in.switches();
            Quota quota = s.quota().orElseGet(() -> Quota.parse(QuotaCells.DEFAULT_QUOTA, Quota.Window.SLIDING));
            return QuotaCells.of(quota, keyHeader(in), s.edges() > 1 ? s.edges() : Matrix.FLEET_EDGES);
        }

        @Override
        List<Check.Outcome> checks(List<CellResult> cells, StackSpec limits) {
            return QuotaPromise.check(cells);
        }

        @Override
        List<ReportSection> sections(List<CellResult> cells, List<Check.Outcome> checks,
                Map<String, CellPrediction> predictions, StackSpec limits) {
            return QuotasSection.of(cells);
        }

        @Override
        Predictor.Model model() {
            return QuotasSection.MODEL;
        }
    },
    /**
     * nginx, HAProxy and Varnish side by side. They are compared on what they all can do, rejecting
     * over the limit: nodelay unless the user's --front-mode or --back-mode say otherwise (HAProxy's
     * and Varnish's cells are then refused in one line each).
     */
    EDGES {
        @Override
        List<Cell> cells(Input in) {
            suitePlansOnly(in, "runs the suite's stress, load and flood plans");
            return EdgeCells.of(in.switches().frontRate());
        }

        @Override
        void defaults(StackSwitches switches, Input in) {
            if (!in.given("--front-mode")) {
                switches.frontMode(LimitMode.NODELAY);
            }
            if (!in.given("--back-mode")) {
                switches.backMode(LimitMode.NODELAY);
            }
        }

        @Override
        boolean cellsChooseEdge() {
            return true;
        }

        @Override
        List<Check.Outcome> checks(List<CellResult> cells, StackSpec limits) {
            List<Check.Outcome> both = new ArrayList<>(EdgePromise.check(cells, limits));
            both.addAll(BackLimitPromise.of(limits).check(cells));
            return both;
        }

        @Override
        List<ReportSection> sections(List<CellResult> cells, List<Check.Outcome> checks,
            Map<String, CellPrediction> predictions, StackSpec limits) {
            return List.of(EdgesSection.of(cells, checks, limits));
        }
    },
    /**
     * The database endpoint behind each cache, and the pool sweep: on the suite's PostgreSQL unless
     * --origin-db says otherwise, which it may not (H2 in the origin's JVM has no CPU, no
     * connections and no backends of its own to measure).
     */
    DB {
        @Override
        List<Cell> cells(Input in) {
            suitePlansOnly(in, "runs the suite's stress and flood plans on /places");
            if (!in.switches().origins().isEmpty()) {
                throw new IllegalArgumentException("--matrix db measures the suite's own origin and its PostgreSQL:"
                        + " drop --origin");
            }
            return DbCells.of();
        }

        @Override
        OriginDatabase.Kind database() {
            return OriginDatabase.Kind.POSTGRES;
        }

        @Override
        int originThreads() {
            // A request holds one connection at a time: with fewer threads the larger pools would sit idle.
            return DbCells.POOLS.get(DbCells.POOLS.size() - 1);
        }

        @Override
        boolean cellsChooseAppCache() {
            return true;
        }

        @Override
        List<ReportSection> sections(List<CellResult> cells, List<Check.Outcome> checks,
                Map<String, CellPrediction> predictions, StackSpec limits) {
            return DbSection.of(cells, predictions);
        }

        @Override
        Predictor.Model model() {
            return DbPrediction.MODEL;
        }
    },
    /**
     * Slow clients (slow headers, a slow body, a slow reader) at each edge product while the normal
     * clients run the stress plan, each beside the same edge's baseline without them. As the edges
     * matrix, the products are compared rejecting over the limit (nodelay) unless the user says
     * otherwise. The attacker speaks plain HTTP/1.1 to one front tier.
     */
    ATTACKS {
        @Override
        List<Cell> cells(Input in) {
            suitePlansOnly(in, "runs the suite's stress plan beside its slow clients");
            if (in.switches().edges() > 1) {
                throw new IllegalArgumentException("--matrix attacks holds the connections of one edge: drop --edges "
                        + in.switches().edges());
            }
            if (in.switches().tls()) {
                throw new IllegalArgumentException("--matrix attacks' slow clients speak plain HTTP/1.1: drop --tls");
            }
            return AttackCells.of();
        }

        @Override
        void defaults(StackSwitches switches, Input in) {
            EDGES.defaults(switches, in);
        }

        @Override
        boolean cellsChooseEdge() {
            return true;
        }

        @Override
        List<Check.Outcome> checks(List<CellResult> cells, StackSpec limits) {
            List<Check.Outcome> both = new ArrayList<>(AttackPromise.check(cells));
            both.addAll(BackLimitPromise.of(limits).check(cells));
            return both;
        }

        /** The model has no slow clients: each edge's baseline cell is the figure without them. */
        @Override
        Predictor.Model model() {
            return Predictor.none("the model does not simulate slow clients: each edge's baseline cell, the same plan"
                    + " without the attack, stands in its place");
        }

        @Override
        List<ReportSection> sections(List<CellResult> cells, List<Check.Outcome> checks,
                Map<String, CellPrediction> predictions, StackSpec limits) {
            return AttacksSection.of(cells);
        }
    },
    /**
     * Faults at the edge while the flood runs: nginx reloaded with another front limit, a worker
     * killed, the suite's origin killed and started again (on /hare, and on a path that permits no
     * stale), the edge cache full, and with --app-cache redis the origin's Redis killed and started
     * again. The first two act on nginx's master and
     * workers by PID, so a product without {@link Capability#FAULTS} is refused; one
     * edge, so that the fault reaches every request. The front limit rejects over it (nodelay) with
     * a small burst unless the user says otherwise, so that each second's admissions show which
     * limit is in force.
     */
    FAULTS {
        @Override
        List<Cell> cells(Input in) {
            suitePlansOnly(in, "floods with the suite's flood plan");
            if (!in.edge().capabilities().contains(Capability.FAULTS)) {
                throw new IllegalArgumentException("--matrix faults reloads nginx and kills its workers: drop --edge "
                        + in.edge() + " (HAProxy would need its master socket's reload, Varnish a VCL swap)");
            }
            if (in.switches().edges() > 1) {
                throw new IllegalArgumentException("--matrix faults strikes one edge: drop --edges "
                        + in.switches().edges());
            }
            if (!in.switches().frontLimit()) {
                throw new IllegalArgumentException("--matrix faults reloads the front limit with another rate: drop"
                        + " --no-front-limit");
            }
            // The suite cannot restart a user's origin: that cell is left out.
            // Redis's cell only where the run has it: --app-cache redis, which the suite's own origin uses.
            return FaultCells.of(in.switches().frontRate(), in.switches().origins().isEmpty(), in.appCacheRedis());
        }

        @Override
        void defaults(StackSwitches switches, Input in) {
            if (!in.given("--front-mode")) {
                switches.frontMode(LimitMode.NODELAY);
            }
            if (!in.given("--front-rate")) {
                switches.frontRate(FAULTS_FRONT_RATE);
            }
            if (!in.given("--front-burst")) {
                switches.frontBurst(FAULTS_FRONT_BURST);
            }
        }

        /** The stale-refused cell's endpoint, beside the origin's own: every other cell keeps its stale permissions. */
        @Override
        List<String> originArgs() {
            return FaultCells.NO_STALE_ORIGIN_ARGS;
        }

        @Override
        int originThreads() {
            // The worker kill's flood admits 40 /tortoise a second, 2 s each in the default profile: 80 at once.
            // With fewer threads they queue at the origin, the kill loses the queue as well as what was in flight,
            // and the next cell starts behind the backlog.
            return FAULTS_ORIGIN_THREADS;
        }

        @Override
        List<Check.Outcome> checks(List<CellResult> cells, StackSpec limits) {
            return FaultPromise.check(cells);
        }

        /** A fault changes the tiers mid-cell; figures set beside a simulation without it would all look wrong. */
        @Override
        Predictor.Model model() {
            return Predictor.none("a fault changes the tiers mid-cell (a reload's new limit, a worker or the origin"
                    + " gone), which the model does not simulate: the fault's own figures and promise stand in its place");
        }

        @Override
        List<ReportSection> sections(List<CellResult> cells, List<Check.Outcome> checks,
                Map<String, CellPrediction> predictions, StackSpec limits) {
            return FaultsSection.of(cells);
        }
    };

    /**
     * --matrix faults' front rate and burst unless given: a flood at twice the rate stays light on a
     * shared machine, and a reload to a quarter of it admits (rate / 4 + burst) a second, well under
     * the old rate: the seconds tell the two limits apart.
     */
    static final int FAULTS_FRONT_RATE = 40;
    static final int FAULTS_FRONT_BURST = 5;
    static final int FAULTS_ORIGIN_THREADS = 100;

    /** What a kind reads of the command to make its cells. */
    interface Input {
        List<Plan> plans();

        StackSwitches switches();

        /** Whether the user gave {@code option} on the command line. */
        boolean given(String option);

        /** The edge product --edge names (nginx unless given). */
        EdgeProduct edge();

        /** Whether the run has the origin's app cache in Redis (--app-cache redis). */
        boolean appCacheRedis();

        /** Whether the plans are the user's own rather than the suite's. */
        boolean ownPlan();

        /** What to do instead when a kind runs only the suite's own plans. */
        String notOwnPlan();
    }

    /** The kind's cells, before --only and the switches narrow them. */
    abstract List<Cell> cells(Input in);

    /** Sets what the kind needs of the switches the user left alone, before they are checked. */
    void defaults(StackSwitches switches, Input in) {}

    /** The database the kind's cells run on, whatever --origin-db says; null: the user's. */
    OriginDatabase.Kind database() {
        return null;
    }

    /** Arguments the kind's cells need of the suite's own origin (an endpoint of their own), beside the profile's. */
    List<String> originArgs() {
        return List.of();
    }

    /** The origin's request threads the kind needs unless --origin-threads says otherwise; 0: the default. */
    int originThreads() {
        return 0;
    }

    /** Whether each cell has its own --app-cache mode, so that the flag picks cells instead of setting it. */
    boolean cellsChooseAppCache() {
        return false;
    }

    /** Whether each cell has its own edge product, so that --edge picks cells instead of setting it. */
    boolean cellsChooseEdge() {
        return false;
    }

    /** Whether each cell balances its edges itself, so that several edges are not run both ways. */
    boolean cellsChooseBalance() {
        return false;
    }

    /** How the model predicts the kind's cells. */
    Predictor.Model model() {
        return Predictor.SIMULATION;
    }

    /**
     * The checks the kind makes by itself, beside the user's --assert.
     *
     * @param limits the stack as switched with both limits on: the limits its cells turn on and off
     */
    List<Check.Outcome> checks(List<CellResult> cells, StackSpec limits) {
        return List.of();
    }

    /** The sections the kind adds to its report: its findings and its own tables, from its cells' figures. */
    List<ReportSection> sections(List<CellResult> cells, List<Check.Outcome> checks,
            Map<String, CellPrediction> predictions, StackSpec limits) {
        return List.of();
    }

    /**
     * Refuses the flags a kind's cells set themselves ({@code why}), rather than silently overriding
     * the user's: "--matrix KIND WHY: drop FLAG (--only picks cells)".
     */
    void refuseOwn(Input in, String why, String... flags) {
        for (String own : flags) {
            if (in.given(own)) {
                throw new IllegalArgumentException("--matrix " + this + " " + why + ": drop " + own
                        + " (--only picks cells)");
            }
        }
    }

    /** Refuses the user's own plans (--plan, a replay) for a kind that runs only the suite's. */
    void suitePlansOnly(Input in, String what) {
        if (in.ownPlan()) {
            throw new IllegalArgumentException("--matrix " + this + " " + what + ": " + in.notOwnPlan());
        }
    }

    /** The header the keys plan sends keys in: the user's --limit-key header:NAME, or X-Api-Key. */
    String keyHeader(Input in) {
        LimitKey key = in.switches().limitKey();
        if (!key.byAddress() && key.kind() != LimitKey.Kind.HEADER) {
            throw new IllegalArgumentException("--matrix " + this + " sends each key in a header: use --limit-key"
                    + " header:NAME (or none, for X-Api-Key), not " + key);
        }
        return key.kind() == LimitKey.Kind.HEADER ? key.name() : "X-Api-Key";
    }

    /** As typed on the command line, listed in --help and in the error for a bad value. */
    @Override
    public String toString() {
        return name().toLowerCase(Locale.ROOT);
    }
}
