package dev.ratecache.suite.advise;

import dev.ratecache.accesslog.Printable;
import dev.ratecache.suite.advise.Advisor.FrontCandidate;
import dev.ratecache.suite.advise.Advisor.TierAdvice;
import dev.ratecache.suite.switches.LimitMode;
import dev.ratecache.suite.switches.LimitTier;
import dev.ratecache.suite.switches.TiersFile;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * advise --key-field: what was advised per tier, in advice.md and the terminal, and the tiers file
 * ({@value #FILE}) ready for {@code --tiers}.
 *
 * @param keyField   the log's key field
 * @param tiersFile  the tiers file the membership came from, as the user named it; null when none was given
 *                   (every key is then in the anonymous tier)
 * @param given      that file's tiers; empty without one
 * @param tiers      the advice per tier, in the file's order, anonymous last unless the file placed it
 * @param keyed      requests with a key
 * @param keyless    requests without one (counted by address in the anonymous tier)
 * @param nodelay    the mode the tiers were advised in (advise's --front-mode)
 * @param maxHurtPct the share of a tier's normal keys a recommendation may hurt
 * @param reading    for a log of whole seconds, the reading of a second the tiers were advised on; null otherwise
 */
public record TierAdviceReport(String keyField, String tiersFile, List<LimitTier> given, List<TierAdvice> tiers,
        long keyed, long keyless, boolean nodelay, double maxHurtPct, dev.ratecache.accesslog.WithinSecond reading) {
    public static final String FILE = "tiers.txt";

    public TierAdviceReport {
        given = List.copyOf(given);
        tiers = List.copyOf(tiers);
    }

    /** For a log whose times say where in its second each request came. */
    public TierAdviceReport(String keyField, String tiersFile, List<LimitTier> given, List<TierAdvice> tiers,
            long keyed, long keyless, boolean nodelay, double maxHurtPct) {
        this(keyField, tiersFile, given, tiers, keyed, keyless, nodelay, maxHurtPct, null);
    }

    private LimitMode mode() {
        return nodelay ? LimitMode.NODELAY : LimitMode.QUEUE;
    }

    /**
     * The recommended tiers, with the given file's keys and quotas: the tiers file to write. A tier the log has no
     * request of keeps the file's values (nothing to advise it on); the anonymous tier is left out
     * when neither the file nor the log has it.
     */
    public List<LimitTier> recommended() {
        Map<String, LimitTier> byName = given.stream().collect(Collectors.toMap(LimitTier::name, Function.identity()));
        List<LimitTier> out = new ArrayList<>();
        for (TierAdvice t : tiers) {
            LimitTier g = byName.get(t.tier());
            List<String> keys = g == null ? List.of() : g.keys();
            if (t.pick() != null) {
                // Only the rate and burst are advised here: the file's own quota= stays as it was.
                out.add(new LimitTier(t.tier(), t.pick().rate(), t.pick().burst(), mode(), keys, g == null ? "" : g.quota()));
            } else if (g != null) {
                out.add(g);
            }
        }
        return out;
    }

    /** The tiers file's text; its comment says where it came from. */
    public String tiersFileText(String source) {
        List<String> comment = new ArrayList<>();
        comment.add("Tiers recommended by ./run-tests.sh advise for " + source + " (keys from field " + keyField + "):");
        comment.add("per tier, the tightest rate and burst that hurt at most " + Advisor.plain(maxHurtPct)
                + " % of its normal keys (advice.md).");
        comment.add(tiersFile == null ? "No --tiers file was given: every key is in the anonymous tier."
                : "Tier membership and keys from " + tiersFile + "; unknown keys are anonymous.");
        comment.add("Use it with: ./run-tests.sh --limit-key header:NAME --tiers " + FILE);
        return TiersFile.format(recommended(), comment);
    }

    /** One line for the terminal. */
    public String terminal() {
        return "per tier (key field " + keyField + "): " + tiers.stream().map(t -> t.pick() == null
                ? t.tier() + " no requests" : t.tier() + " " + t.pick().rate() + " r/s burst " + t.pick().burst())
                .collect(Collectors.joining(", ")) + " (" + FILE + ")";
    }

    public String markdown() {
        StringBuilder s = new StringBuilder("\n## Per tier (keys from field ").append(keyField).append(")\n\n");
        s.append(String.format(Locale.ROOT, "%d requests carry a key, %d do not.", keyed, keyless));
        if (tiersFile == null) {
            s.append(" No `--tiers` file was given, so every key is in one tier, `anonymous`: its recommendation is"
                    + " one limit for every key. Give advise the tiers file (`--tiers FILE`) to have each plan advised apart.");
        } else {
            s.append(" Tier membership comes from `").append(tiersFile).append("`; a key it does not list is in `anonymous`.");
        }
        s.append(" A request without a key is counted by its address in `anonymous`, as nginx does under"
                + " `--missing-key addr`.\n\n");
        s.append("For each tier, the keys are the clients of the per-client search above: the tightest rate and burst"
                + " (least flood per minute) that hurts at most ").append(Advisor.plain(maxHurtPct))
                .append(" % of the tier's normal keys (outlier keys apart, by the same rule as outlier clients), in ")
                .append(mode()).append(" mode")
                .append(reading == null ? "" : ", with the log's requests taken as " + reading.words()
                        + " as for the per-client limit (only that reading is worked out per tier)")
                .append(". The recommended tiers are in [").append(FILE).append("](").append(FILE)
                .append("), ready for `--tiers` (with `--limit-key header:NAME`).\n\n");
        s.append("| tier | keys | requests | normal keys | may hurt | recommended | rejected % | keys hurt | outlier keys hit | flood/min |\n")
                .append("|---|---|---|---|---|---|---|---|---|---|\n");
        for (TierAdvice t : tiers) {
            FrontCandidate p = t.pick();
            s.append("| ").append(t.tier()).append(" | ").append(t.keys()).append(" | ").append(t.requests()).append(" | ")
                    .append(t.normalKeys()).append(" | ").append(t.allowedHurt()).append(" | ");
            if (p == null) {
                s.append("no requests: kept as given | | | | |\n");
            } else {
                s.append(p.rate()).append(" r/s burst ").append(p.burst()).append(" | ")
                        .append(AdviceWriter.f2(p.rejectedPct())).append(" | ").append(p.hurtClients()).append(" | ")
                        .append(p.outliersHurt()).append(" | ").append(p.floodPerMinute()).append(" |\n");
            }
        }
        for (TierAdvice t : tiers) {
            if (!t.outliers().isEmpty()) {
                s.append("\nOutlier keys in ").append(t.tier()).append(": ").append(t.outliers().stream()
                        .limit(10).map(c -> Printable.escape(c.client()) + " (" + c.requests() + " requests, peak "
                                + AdviceWriter.f1(c.peakPerSec()) + " r/s)").collect(Collectors.joining(", ")))
                        .append(t.outliers().size() > 10 ? " and " + (t.outliers().size() - 10) + " more" : "").append(".\n");
            }
        }
        return s.toString();
    }
}
