package dev.ratecache.suite.migrate;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.ratecache.model.LimitSpec;
import dev.ratecache.suite.edge.Capability;
import dev.ratecache.suite.edge.Edge;
import dev.ratecache.suite.switches.StackSwitches;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * What moving a per-client limit from one edge product to another changes for its clients: the
 * differences the products declare (their limiters, what the new one cannot do, what migrate gave up
 * to render its nearest config, each in the product's own words), and both limits' models on the same
 * traffics, request by request.
 *
 * @param from        the product moved from (the suite's default, nginx)
 * @param to          the product moved to
 * @param given       the user's switches: the limit as it is
 * @param nearest     the target's nearest switches and what was given up for them
 * @param comparisons one per traffic, in order
 * @param source      where the limit came from, for the report: "the switches", or the user's config's limit_req
 */
public record Migration(Edge from, Edge to, StackSwitches given, Nearest nearest, List<LimitComparison> comparisons,
        String source) {

    /** The old limit's model, as the product moved from renders the user's switches. */
    public static LimitSpec fromLimit(Edge from, StackSwitches given) {
        return from.limiterModel(given.frontRate(), given.frontBurst(), given.frontMode(), given.rejectStatus());
    }

    /** The new limit's model, as the target renders its nearest switches. */
    public static LimitSpec toLimit(Edge to, StackSwitches nearest) {
        return to.limiterModel(nearest.frontRate(), nearest.frontBurst(), nearest.frontMode(), nearest.rejectStatus());
    }

    /** Both models on each of {@code traffics}. */
    public static Migration of(Edge from, Edge to, StackSwitches given, Nearest nearest, List<Traffic> traffics) {
        return of(from, to, given, nearest, traffics, "the switches");
    }

    /** The same, for a limit that came from {@code source}. */
    public static Migration of(Edge from, Edge to, StackSwitches given, Nearest nearest, List<Traffic> traffics,
            String source) {
        LimitSpec before = fromLimit(from, given);
        LimitSpec after = toLimit(to, nearest.switches());
        List<LimitComparison> comparisons = traffics.stream().map(t -> LimitComparison.of(t, before, after)).toList();
        return new Migration(from, to, given, nearest, comparisons, source);
    }

    /** The old limit in words: "nginx's 10 r/s burst 20 (nodelay)". */
    public String fromWords() {
        return from.displayName() + "'s " + given.frontRate() + " r/s burst " + given.frontBurst() + " (" + given.frontMode() + ")";
    }

    /** What differs and why, one line each, every reason in the products' own words. */
    public List<String> differences() {
        List<String> lines = new ArrayList<>();
        if (!from.limiter().equals(to.limiter())) {
            lines.add(from.displayName() + "'s per-client limit is a " + from.limiter() + "; " + to.displayName()
                    + "'s is a " + to.limiter() + ": the same rate and burst decide some requests differently (below,"
                    + " request by request).");
        }
        for (Nearest.Change change : nearest.changes()) {
            lines.add("The nearest config takes " + change.flags() + ": " + change.why());
        }
        int fromStatus = fromLimit(from, given).rejectStatus();
        int toStatus = toLimit(to, nearest.switches()).rejectStatus();
        if (fromStatus != toStatus) {
            lines.add(to.displayName() + " refuses with " + toStatus + " where " + from.displayName() + " refused with "
                    + fromStatus + ": clients that look for " + fromStatus + " must look for " + toStatus + ".");
        }
        Set<Capability> lost = EnumSet.copyOf(from.capabilities());
        lost.removeAll(to.capabilities());
        List<String> labels = lost.stream().filter(Capability::theProducts).map(Capability::label).toList();
        if (!labels.isEmpty()) {
            lines.add(to.displayName() + " cannot, where " + from.displayName() + " can: " + String.join(", ", labels) + ".");
        }
        if (lines.isEmpty()) {
            lines.add(to.displayName() + " declares the same limiter and capabilities as " + from.displayName() + ".");
        }
        return lines;
    }

    /** One sentence per traffic: what moving changes for it. */
    public List<String> sentences() {
        return comparisons.stream().map(this::sentence).toList();
    }

    String sentence(LimitComparison c) {
        String old = from.displayName();
        StringBuilder b = new StringBuilder("Moving from ").append(fromWords()).append(" to ").append(to.displayName())
                .append("'s nearest, on ").append(c.traffic().words()).append(": ");
        b.append(count(c.allowedNotBefore())).append(" allowed that ").append(old).append(" refused")
                .append(when(c, LimitComparison.Way.ALLOWED_NOT_BEFORE));
        b.append("; ").append(count(c.refusedNotBefore())).append(" refused that ").append(old).append(" allowed")
                .append(when(c, LimitComparison.Way.REFUSED_NOT_BEFORE));
        if (c.delayedBefore() > 0) {
            b.append("; ").append(old).append(" delayed ").append(c.delayedBefore()).append(" of the requests both allow, which ")
                    .append(to.displayName()).append(" passes at once");
        }
        return b.append(" (of ").append(c.requests()).append(" requests, ").append(to.displayName()).append(" allows ")
                .append(c.toAllowed()).append(", ").append(old).append(" ").append(c.fromAllowed()).append(").").toString();
    }

    private static String count(long n) {
        return n == 0 ? "no request" : n == 1 ? "1 request" : n + " requests";
    }

    private static String when(LimitComparison c, LimitComparison.Way way) {
        List<LimitComparison.Span> spans = c.spans(way);
        if (spans.isEmpty()) {
            return "";
        }
        long keys = c.clients().stream().filter(d -> way == LimitComparison.Way.ALLOWED_NOT_BEFORE
                ? d.allowedNotBefore() > 0 : d.refusedNotBefore() > 0).count();
        String who = keys == 1 ? "" : " from " + keys + " clients";
        if (spans.size() == 1) {
            return who + ", all " + c.traffic().when(spans.get(0).fromMs(), spans.get(0).toMs());
        }
        LimitComparison.Span first = spans.get(0);
        LimitComparison.Span last = spans.get(spans.size() - 1);
        return who + ", in " + spans.size() + " spans: the first " + c.traffic().when(first.fromMs(), first.toMs())
                + ", the last " + c.traffic().when(last.fromMs(), last.toMs());
    }

    /** What the terminal shows: what differs, then the sentences. */
    public String text() {
        StringBuilder b = new StringBuilder();
        b.append("What differs moving from ").append(fromWords()).append(" to ").append(to.displayName()).append(":\n");
        differences().forEach(l -> b.append("  - ").append(l).append('\n'));
        b.append("Request by request, each limit's model on the same traffic:\n");
        sentences().forEach(s -> b.append("  - ").append(s).append('\n'));
        return b.toString();
    }

    /** The most spans report.md lists per traffic; the JSON holds every one. */
    static final int SPANS_SHOWN = 20;

    /** report.md: what differs and why first, then the traffics, then the config's files. */
    public String markdown(List<String> configFiles, String verified) {
        StringBuilder b = new StringBuilder();
        b.append("# Moving from ").append(from.displayName()).append(" to ").append(to.displayName()).append("\n\n");
        b.append("The limit (from ").append(source).append("): ").append(fromWords()).append(", by ").append(given.limitKey().where())
                .append(". The nearest ").append(to.displayName()).append(" config is in this folder (")
                .append(String.join(", ", configFiles)).append(").\n\n");
        b.append("## What differs and why\n\n");
        differences().forEach(l -> b.append("- ").append(l).append('\n'));
        b.append("\n## Request by request\n\n");
        b.append("Each request decided by both limits' models (model/), each from a fresh state: ").append(from.displayName())
                .append("'s as it renders your limit, ").append(to.displayName()).append("'s as it renders the nearest config.\n\n");
        b.append("| traffic | requests | allowed by ").append(from.displayName()).append(" | allowed by ").append(to.displayName())
                .append(" | allowed that ").append(from.displayName()).append(" refused | refused that ").append(from.displayName())
                .append(" allowed | delayed by ").append(from.displayName()).append(", passed at once |\n");
        b.append("| --- | ---: | ---: | ---: | ---: | ---: | ---: |\n");
        for (LimitComparison c : comparisons) {
            b.append("| ").append(c.traffic().words()).append(" | ").append(c.requests()).append(" | ").append(c.fromAllowed())
                    .append(" | ").append(c.toAllowed()).append(" | ").append(c.allowedNotBefore()).append(" | ")
                    .append(c.refusedNotBefore()).append(" | ").append(c.delayedBefore()).append(" |\n");
        }
        b.append('\n');
        sentences().forEach(s -> b.append("- ").append(s).append('\n'));
        for (LimitComparison c : comparisons) {
            if (c.differing() == 0) {
                continue;
            }
            b.append("\n### ").append(c.traffic().words()).append(": when\n\n");
            b.append("| client | way | when | requests |\n| --- | --- | --- | ---: |\n");
            int shown = 0;
            for (LimitComparison.ClientDifference d : c.clients()) {
                for (LimitComparison.Span s : d.spans()) {
                    if (shown++ < SPANS_SHOWN) {
                        b.append("| ").append(d.key()).append(" | ").append(way(s.way())).append(" | ")
                                .append(c.traffic().when(s.fromMs(), s.toMs())).append(" | ").append(s.requests()).append(" |\n");
                    }
                }
            }
            if (shown > SPANS_SHOWN) {
                b.append("\n").append(shown - SPANS_SHOWN).append(" spans more in migrate.json.\n");
            }
        }
        if (verified != null) {
            b.append("\n## Verified\n\n").append(verified).append('\n');
        }
        return b.toString();
    }

    private String way(LimitComparison.Way way) {
        return way == LimitComparison.Way.ALLOWED_NOT_BEFORE ? "allowed, " + from.displayName() + " refused"
                : "refused, " + from.displayName() + " allowed";
    }

    /** migrate.json: the same, every span. */
    public Map<String, Object> json() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("from", from.name());
        m.put("to", to.name());
        Map<String, Object> limit = new LinkedHashMap<>();
        limit.put("rate", given.frontRate());
        limit.put("burst", given.frontBurst());
        limit.put("mode", given.frontMode().toString());
        limit.put("key", given.limitKey().toString());
        limit.put("rejectStatus", given.rejectStatus());
        limit.put("source", source);
        m.put("limit", limit);
        m.put("fromModel", fromLimit(from, given).toString());
        m.put("toModel", toLimit(to, nearest.switches()).toString());
        m.put("changes", nearest.changes().stream().map(c -> {
            Map<String, Object> change = new LinkedHashMap<>();
            change.put("flags", c.flags());
            change.put("why", c.why());
            return change;
        }).toList());
        m.put("differences", differences());
        List<Map<String, Object>> traffics = new ArrayList<>();
        for (LimitComparison c : comparisons) {
            Map<String, Object> t = new LinkedHashMap<>();
            t.put("traffic", c.traffic().name());
            t.put("words", c.traffic().words());
            t.put("requests", c.requests());
            t.put("fromAllowed", c.fromAllowed());
            t.put("toAllowed", c.toAllowed());
            t.put("allowedNotBefore", c.allowedNotBefore());
            t.put("refusedNotBefore", c.refusedNotBefore());
            t.put("delayedBefore", c.delayedBefore());
            t.put("sentence", sentence(c));
            List<Map<String, Object>> clients = new ArrayList<>();
            for (LimitComparison.ClientDifference d : c.clients()) {
                Map<String, Object> cl = new LinkedHashMap<>();
                cl.put("client", d.key());
                cl.put("allowedNotBefore", d.allowedNotBefore());
                cl.put("refusedNotBefore", d.refusedNotBefore());
                cl.put("spans", d.spans().stream().map(s -> {
                    Map<String, Object> sp = new LinkedHashMap<>();
                    sp.put("way", s.way().name().toLowerCase(Locale.ROOT));
                    sp.put("fromMs", s.fromMs() - c.traffic().startMs());
                    sp.put("toMs", s.toMs() - c.traffic().startMs());
                    sp.put("when", c.traffic().when(s.fromMs(), s.toMs()));
                    sp.put("requests", s.requests());
                    return sp;
                }).toList());
                clients.add(cl);
            }
            t.put("clients", clients);
            traffics.add(t);
        }
        m.put("traffics", traffics);
        return m;
    }

    /** Writes report.md and migrate.json into {@code dir}. */
    public void write(Path dir, List<String> configFiles, String verified) throws IOException {
        write(dir, configFiles, verified, List.of());
    }

    /** The same, with --verify's results, one per product, in migrate.json's "verify". */
    public void write(Path dir, List<String> configFiles, String verified, List<Verify.Result> results) throws IOException {
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("report.md"), markdown(configFiles, verified), StandardCharsets.UTF_8);
        Map<String, Object> json = json();
        if (verified != null) {
            json.put("verified", verified);
            json.put("verify", results.stream().map(r -> {
                Map<String, Object> v = new LinkedHashMap<>();
                v.put("product", r.product());
                v.put("requests", r.requests());
                v.put("refused", r.refused());
                v.put("modelRefused", r.modelRefused());
                v.put("disagreeing", r.disagreeing());
                v.put("tolerated", r.tolerated());
                v.put("agrees", r.agrees());
                return v;
            }).toList());
        }
        new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(dir.resolve("migrate.json").toFile(), json);
    }
}
