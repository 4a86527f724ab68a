package dev.ratecache.suite.edge;

import dev.ratecache.model.EdgeCacheSpec;
import dev.ratecache.model.LimitSpec;
import dev.ratecache.suite.spec.StackSpec;
import dev.ratecache.suite.switches.LimitMode;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * An edge product (nginx, HAProxy, Varnish) as the suite drives it: the stack's two tiers, from
 * a product-neutral {@link StackSpec}. The suite asks {@link #refusal} first, so that a user
 * hears in one line what the product cannot do before anything is rendered or started.
 */
public interface Edge {
    /** The product's name as a user would give it, e.g. {@code haproxy}. */
    String name();

    Set<Capability> capabilities();

    /**
     * The one line that says what this edge cannot do for {@code spec}, why, and what to give
     * instead; empty when it can run the spec as asked.
     */
    Optional<String> refusal(StackSpec spec);

    /** Renders {@code spec} into plain config files in {@code dir}, one per tier; returns them, front first. */
    List<Path> render(StackSpec spec, Path dir) throws IOException;

    /**
     * Renders {@code spec} into {@code dir}, starts both tiers and returns once each accepts
     * connections. The origin(s) must already run. Throws with the product's own last words when
     * a tier does not come up.
     */
    Running start(StackSpec spec, Path dir) throws IOException;

    /**
     * The settings of this product's front tier, as {@code spec} renders them, that bound a slow
     * client of {@code attack}: what the report names beside the way its connections ended.
     */
    String slowClientBound(SlowClient attack, StackSpec spec);

    /**
     * Why the product's binary does not run here and how to install it, e.g. "haproxy is not
     * installed (/usr/sbin/haproxy): sudo apt-get install -y haproxy"; empty when it runs.
     */
    Optional<String> notInstalled();

    /**
     * The full front and the bare form as one-thread processes whose instructions a tool can count
     * ({@code peak --instructions --edge}); empty when the adapter has none.
     */
    default Optional<CountedForms> countedForms() {
        return Optional.empty();
    }

    /** The product's version line (nginx -v, haproxy -v, varnishd -V), for a benchmark's machine line. */
    String version() throws IOException, InterruptedException;

    /**
     * The product's least caching config, which peak measures its full edge against; empty for
     * nginx, whose front peak takes apart feature by feature instead (--breakdown).
     */
    default Optional<BareForm> bareForm() {
        return Optional.empty();
    }

    /** Started tiers; closing stops each by its PID. */
    interface Running extends AutoCloseable {
        URI frontUri();

        /** The tiers' PIDs, front first: for CPU per tier. */
        List<Long> pids();

        /** Every process of the front tier whose CPU is the front's: its own, unless it runs several. */
        default List<Long> frontPids() {
            return List.of(pids().get(0));
        }

        /**
         * Every request the front tier logged, in the order they ended; complete only once the tiers
         * are closed (products buffer their logs).
         */
        List<EdgeEvent> frontEvents() throws IOException;

        /** The same for the back tier: what reached the origin, and when. */
        List<EdgeEvent> backEvents() throws IOException;

        /**
         * The front tier's config rewritten from {@code spec} and reloaded without a restart, as the
         * product does it (--matrix faults); returns the epoch ms the reload was signalled at, once it is.
         */
        default long reloadFront(StackSpec spec) throws IOException, InterruptedException {
            throw new UnsupportedOperationException("the suite reloads only nginx's tiers");
        }

        /** The front tier's worker processes now, by PID: what a fault kills; none when the suite cannot tell them. */
        default List<Long> frontWorkers() {
            return List.of();
        }

        /**
         * The folder the front tier's cache keeps its entries in on disk, what a cache-full fault
         * watches fill; empty for a product whose cache lives in memory.
         */
        default Optional<Path> frontCacheFolder() {
            return Optional.empty();
        }

        @Override
        void close();

        /**
         * {@code started}, the spec the tiers were started from, with what starting them made that it
         * did not name (nginx's fleet Redis): the spec they run.
         */
        default StackSpec runningSpec(StackSpec started) {
            return started;
        }

        /**
         * The processes the tiers started to serve beside them, whose CPU a request costs too (nginx's
         * fleet Redis); none when they started none.
         */
        default List<Long> companionPids() {
            return List.of();
        }

        /** The front tier's access logs, one per edge, in the product's own format; none when it keeps no file. */
        default List<Path> frontAccessLogs() {
            return List.of();
        }

        /** The front tier's config folder, whose TLS settings peak's TLS ceiling copies; empty when it has none. */
        default Optional<Path> frontConfigFolder() {
            return Optional.empty();
        }
    }

    /**
     * How up's status line reads this product's running {@code tiers}, started from {@code spec} in
     * {@code dir}, counting answers with {@code rejectStatus} as rejected.
     */
    LiveCounters liveCounters(Running tiers, StackSpec spec, Path dir, int rejectStatus);

    /**
     * The path of the product's status page on each tier's status port (the spec's frontStatus and
     * backStatus), which up lists; empty when the product has none.
     */
    default Optional<String> statusPage() {
        return Optional.empty();
    }

    /** What a run folder holds of this product's tiers (rendered configs, logs), as up's banner says it. */
    String runFolderGuide();

    /** Whether its front can run a user's own nginx config (--nginx-conf) in place of the rendered one. */
    default boolean runsOwnNginxConfig() {
        return false;
    }

    // The product as the model and the report see it: what predict/ simulates and the report names,
    // declared here so that neither switches on which product a cell runs.

    /** As the report names it: nginx, HAProxy, Varnish. */
    String displayName();

    /** Its per-client limit's algorithm, named as the report says it. */
    String limiter();

    /**
     * Whether a request its limit denies still counts toward the rate it is judged by, so that a
     * client (or, at the back, every client together) that keeps sending while refused stays refused.
     * False for the token and leaky buckets, which take nothing for a refusal.
     */
    default boolean limiterCountsDenials() {
        return false;
    }

    /**
     * The model of a per-client limit of {@code rate} r/s and {@code burst} in {@code mode} as this
     * product renders it, rejecting with {@code status}.
     */
    LimitSpec limiterModel(int rate, int burst, LimitMode mode, int status);

    /** The model of the edge cache as this product renders {@code spec}'s. */
    EdgeCacheSpec cacheModel(StackSpec spec);

    /**
     * What the product can do but its adapter does not drive yet: refused all the same, but the report
     * does not say the product cannot.
     */
    default java.util.Set<Capability> notBuiltYet() {
        return java.util.Set.of();
    }

    /**
     * What in the product's own code lets one client a few over rate + burst in a second, said beside
     * a broken per-client promise; empty when nothing known in it does.
     */
    default Optional<String> promiseCaveat() {
        return Optional.empty();
    }

    // Refusals derived from capabilities(): a product is refused what it does not declare, each in
    // its own words, so that its declaration and its refusals cannot disagree.

    /**
     * The line refusing {@code spec} for the first of {@code asked}, in that order, that it asks and
     * this product lacks; empty when the product has each one {@code spec} asks.
     */
    default Optional<String> lacking(StackSpec spec, Capability... asked) {
        for (Capability capability : asked) {
            if (!capabilities().contains(capability)) {
                Optional<String> why = whyNot(capability, spec);
                if (why.isPresent()) {
                    return why;
                }
            }
        }
        return Optional.empty();
    }

    /**
     * The line that says why this product cannot give {@code spec} the capability {@code lacking},
     * which it has not got; empty when {@code spec} does not ask it. A quota is counted by nginx's
     * edge alone so far, and says so alike for every other product.
     */
    default Optional<String> whyNot(Capability lacking, StackSpec spec) {
        if (lacking != Capability.QUOTA) {
            return Optional.empty();
        }
        if (spec.quota().isPresent()) {
            return Optional.of("--quota is counted by nginx's edge so far (a Lua script against Redis): drop --quota, or"
                    + " use --edge nginx");
        }
        if (spec.hasQuota()) {
            return Optional.of("A tier's quota= (--tiers) is counted by nginx's edge so far (a Lua script against Redis):"
                    + " drop the quota= fields, or use --edge nginx");
        }
        return Optional.empty();
    }
}
