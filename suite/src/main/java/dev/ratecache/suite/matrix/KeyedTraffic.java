package dev.ratecache.suite.matrix;

import dev.ratecache.jtl.Sample;
import dev.ratecache.suite.peak.Figure;
import dev.ratecache.suite.spec.LimitScope;
import dev.ratecache.suite.switches.AddressCeiling;
import dev.ratecache.suite.switches.LimitKey;
import dev.ratecache.suite.switches.LimitMode;
import dev.ratecache.suite.switches.LimitTier;
import dev.ratecache.suite.switches.MissingKey;
import dev.ratecache.suite.switches.StackSwitches;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What a cell of {@code --matrix tiers} switches and sends: how nginx keys its per-client limit and
 * where it counts, the tiers and their keys, and the one noisy key (or none).
 *
 * @param limitKey  what the cell's per-client limit counts by (addr or the header the plan sends keys in)
 * @param scope     where it counts (all or misses)
 * @param tiers     the tiers the keys belong to; nginx gets them only when the limit counts by key
 * @param tiersFile the user's --tiers file; null: the suite writes {@link #tiersText()} into the cell's folder
 * @param noisyKey  the key that sends at {@code multiple} times its tier's rate; null: every key is well-behaved
 * @param perTier   how many keys of each tier send (the first ones): a user's tier may list thousands
 * @param multiple  the noisy key's rate as a multiple of its tier's
 */
public record KeyedTraffic(LimitKey limitKey, LimitScope scope, List<LimitTier> tiers, Path tiersFile, String noisyKey,
        int perTier, int multiple) implements CellTrait {

    /** The noisy key's rate as a multiple of its tier's in --matrix tiers: well past the tier, as a runaway client would be. */
    public static final int NOISY_MULTIPLE = 10;
    /**
     * The heavy key's multiple in --matrix fleet: past its limit, yet under it on each of the edges
     * when round robin spreads it, so that only a limit held across the fleet rejects it.
     */
    public static final int FLEET_MULTIPLE = 2;
    /** A well-behaved key's rate as a share of its tier's: inside the limit with room for the machine's jitter. */
    public static final double WELL_BEHAVED_SHARE = 0.5;

    public KeyedTraffic {
        tiers = List.copyOf(tiers);
        if (multiple < 1) {
            throw new IllegalArgumentException("the noisy key's multiple must be at least 1, not " + multiple);
        }
    }

    /** A cell of --matrix tiers: its noisy key at {@link #NOISY_MULTIPLE}. */
    public KeyedTraffic(LimitKey limitKey, LimitScope scope, List<LimitTier> tiers, Path tiersFile, String noisyKey,
            int perTier) {
        this(limitKey, scope, tiers, tiersFile, noisyKey, perTier, NOISY_MULTIPLE);
    }

    /**
     * The suite's own tiers when the user gives none: two plans, four free keys and two pro keys, plus
     * one more free key that is the noisy one when a cell has it. nodelay, so that what passes a limit
     * is answered at once and what does not is rejected: the per-tier figures are then rejections, not
     * queueing delays. Their sum (80 r/s well-behaved) stays under the front end's default 100 r/s per
     * address; with the noisy key (200 r/s) it is far past it, which the address-keyed cells show.
     */
    public static List<LimitTier> defaultTiers() {
        return List.of(
                new LimitTier("free", 20, 20, LimitMode.NODELAY, List.of("free-1", "free-2", "free-3", "free-4", NOISY)),
                new LimitTier("pro", 40, 40, LimitMode.NODELAY, List.of("pro-1", "pro-2")));
    }

    /**
     * The suite's tiers for --matrix fleet: as {@link #defaultTiers()}, with bursts a fifth of the
     * rate. A burst as large as the rate would hide the leak: a key sending at twice its rate is
     * admitted 2 x rate a second behind N edges, which is no more than rate + burst. With burst = rate/5
     * it is 1.7 times the promise, and a one-second window tells the strategies apart.
     */
    public static List<LimitTier> fleetTiers() {
        return List.of(
                new LimitTier("free", 20, 4, LimitMode.NODELAY, List.of("free-1", "free-2", "free-3", "free-4", NOISY)),
                new LimitTier("pro", 40, 8, LimitMode.NODELAY, List.of("pro-1", "pro-2")));
    }

    /** The tier of {@code key}; null when no tier lists it. */
    public LimitTier tierOf(String key) {
        return tiers.stream().filter(t -> t.keys().contains(key)).findFirst().orElse(null);
    }

    /** The key of {@link #defaultTiers()} that floods in the noisy cells. */
    public static final String NOISY = "free-noisy";

    /** The key that floods in a cell with a noisy key: the suite's own, or the first key of the user's first tier. */
    public static String noisyOf(List<LimitTier> tiers) {
        if (tiers.stream().anyMatch(t -> t.keys().contains(NOISY))) {
            return NOISY;
        }
        return tiers.stream().filter(t -> !t.keys().isEmpty()).findFirst().map(t -> t.keys().get(0))
                .orElseThrow(() -> new IllegalArgumentException("--matrix tiers needs a tier that lists keys"));
    }

    /** The keys that send, as keys.jmx's keys property: TIER:RATE:KEY separated by ;. */
    public String plannedKeys() {
        List<String> entries = new ArrayList<>();
        for (LimitTier t : tiers) {
            if (t.name().equals(LimitTier.ANONYMOUS)) {
                continue;
            }
            int sent = 0;
            for (String key : t.keys()) {
                boolean noisy = key.equals(noisyKey);
                boolean quietNoisy = noisyKey == null && key.equals(NOISY);
                if (quietNoisy || (!noisy && sent >= perTier)) {
                    continue;
                }
                double rate = noisy ? multiple * t.rate() : WELL_BEHAVED_SHARE * t.rate();
                entries.add(t.name() + ":" + number(rate) + ":" + key);
                sent += noisy ? 0 : 1;
            }
        }
        return String.join(";", entries);
    }

    /** The well-behaved keys' summed rate plus the noisy key's, requests/s: what the plan sends. */
    public double offeredRate() {
        double sum = 0;
        for (String e : plannedKeys().split(";")) {
            sum += Double.parseDouble(e.split(":", 3)[1]);
        }
        return sum;
    }

    /** The tiers file the suite writes for its own tiers (the format --tiers reads). */
    public String tiersText() {
        StringBuilder b = new StringBuilder("# Written by the suite for --matrix tiers: name rate burst mode keys\n");
        for (LimitTier t : tiers) {
            b.append(t.name()).append(' ').append(t.rate()).append(' ').append(t.burst()).append(' ')
                    .append(mode(t.mode()));
            if (!t.keys().isEmpty()) {
                b.append(' ').append(String.join(",", t.keys()));
            }
            b.append('\n');
        }
        return b.toString();
    }

    /** The tiers file nginx reads for this cell: the user's, or the suite's written into {@code dir}. */
    public Path tiersFileIn(Path dir) throws IOException {
        if (tiersFile != null) {
            return tiersFile;
        }
        Path file = dir.resolve("tiers.txt");
        Files.createDirectories(dir);
        Files.writeString(file, tiersText());
        return file;
    }

    /** The cell's per-client limit keyed and scoped as this traffic needs; its tiers file is the runner's to give. */
    @Override
    public StackSwitches apply(StackSwitches s) {
        // The tiers file is set by the runner, which knows the cell's folder; by address nginx takes none.
        s.limitKey(limitKey).limitScope(scope).tiers((Path) null).tiers(limitKey.byAddress() ? List.of() : tiers);
        if (limitKey.byAddress()) {
            // By address there is no key to miss and no key limit for a ceiling to stand beside.
            s.missingKey(MissingKey.ADDR).addressCeiling(AddressCeiling.AUTO);
        }
        return s;
    }

    /** In words; a cell whose kind says its keys itself (a quota cell's) has only the limit's words here. */
    @Override
    public String describe(Cell cell) {
        return cell.traits().stream().anyMatch(CellTrait::describesKeys) ? limitWords() : describe();
    }

    /**
     * The samples by tier and key, with the noisy neighbour's figure; a fleet cell's keys are the
     * fleet's to collect ({@link Cell.Fleet}).
     */
    @Override
    public Figure collect(Cell cell, List<Sample> samples, FleetFallbacks fallbacks) {
        return cell.trait(Cell.Fleet.class) != null ? null : TierFigures.of(samples, noisyKey);
    }

    /** In words, for the report's cell description. */
    public String describe() {
        return limitWords() + (noisyKey == null ? ", every key well-behaved" : ", key " + noisyKey + " sending at "
                        + multiple + "x its tier's rate");
    }

    /** How the per-client limit counts, in words. */
    private String limitWords() {
        return "per-client limit by " + (limitKey.byAddress() ? "address (all keys from one address)"
                : "API key in " + limitKey.where() + ", tiers " + tierNames()) + ", counting "
                + (scope == LimitScope.MISSES ? "edge-cache misses only" : "every request");
    }

    private String tierNames() {
        return String.join(", ", tiers.stream().map(t -> t.name() + " " + t.rate() + " r/s burst " + t.burst()).toList());
    }

    static String mode(LimitMode m) {
        return switch (m.kind()) {
            case QUEUE -> "queue";
            case NODELAY -> "nodelay";
            case DELAY -> "delay=" + m.delay();
        };
    }

    /** A rate as the keys plan's property and the cell's words give it: whole, or up to three decimals. */
    public static String number(double v) {
        return v == Math.rint(v) ? String.valueOf((long) v) : String.format(Locale.ROOT, "%.3f", v).replaceAll("0+$", "");
    }
}
