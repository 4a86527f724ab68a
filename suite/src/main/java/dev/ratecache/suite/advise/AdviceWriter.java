package dev.ratecache.suite.advise;

import dev.ratecache.accesslog.Printable;
import dev.ratecache.suite.advise.Advisor.Advice;
import dev.ratecache.suite.advise.Advisor.BackCandidate;
import dev.ratecache.suite.advise.Advisor.ClientStat;
import dev.ratecache.suite.advise.Advisor.FrontCandidate;
import dev.ratecache.suite.advise.Advisor.LifetimeCandidate;
import dev.ratecache.suite.advise.Advisor.PathAdvice;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Writes an {@link Advice}: the terminal's tables, advice.md (every candidate, and the
 * assumptions), and the nginx snippets with the recommended values, as they are and in
 * {@code limit_req_dry_run on} form.
 */
public final class AdviceWriter {
    private AdviceWriter() {}

    public static final String FRONT_SNIPPET = "front-rate-limit.conf";
    public static final String BACK_SNIPPET = "back-rate-limit.conf";
    public static final String CACHE_SNIPPET = "edge-lifetimes.conf";
    public static final String DRY_RUN_LOG = "limit-req-status-log.conf";

    /** Writes advice.md and nginx/ (with nginx/dry-run/) into {@code dir}. */
    public static void write(Path dir, String source, Advice a) throws IOException {
        write(dir, source, a, null);
    }

    /** As above, with the advice per tier (advise --key-field): its section in advice.md and tiers.txt. */
    public static void write(Path dir, String source, Advice a, TierAdviceReport tiers) throws IOException {
        write(dir, source, a, tiers, null);
    }

    /** As above, with the daily quota per tier (a keyed log of several UTC days) after the tiers' section. */
    public static void write(Path dir, String source, Advice a, TierAdviceReport tiers, QuotaAdvisor.QuotaAdvice quotas)
            throws IOException {
        writeAdvice(dir, source, a);
        if (tiers != null) {
            Files.writeString(dir.resolve(TierAdviceReport.FILE), tiers.tiersFileText(source), StandardCharsets.UTF_8);
            Files.writeString(dir.resolve("advice.md"), tiers.markdown(), StandardCharsets.UTF_8,
                    java.nio.file.StandardOpenOption.APPEND);
        }
        if (quotas != null) {
            Files.writeString(dir.resolve("advice.md"), QuotaAdviceReport.markdown(quotas), StandardCharsets.UTF_8,
                    java.nio.file.StandardOpenOption.APPEND);
        }
    }

    /**
     * advice.md for a log too short (or otherwise unfit) for limits and lifetimes to be advised, which
     * {@code --nginx-conf}'s what-if still reads: the reason, and the dry-run log snippet.
     */
    public static void writeWithoutAdvice(Path dir, String source, String why) throws IOException {
        Path dry = dir.resolve("nginx").resolve("dry-run");
        Files.createDirectories(dry);
        Files.writeString(dry.resolve(DRY_RUN_LOG), dryRunLog(), StandardCharsets.UTF_8);
        Files.writeString(dir.resolve("advice.md"), "# Advice from " + cell(source) + "\n\nNo limit or lifetime advised: "
                + why + ".\n\n", StandardCharsets.UTF_8);
    }

    private static void writeAdvice(Path dir, String source, Advice a) throws IOException {
        Path nginx = dir.resolve("nginx");
        Path dry = nginx.resolve("dry-run");
        Files.createDirectories(dry);
        Files.writeString(nginx.resolve(FRONT_SNIPPET), front(a, false), StandardCharsets.UTF_8);
        Files.writeString(dry.resolve(FRONT_SNIPPET), front(a, true), StandardCharsets.UTF_8);
        if (a.back().recommended() != null) {
            Files.writeString(nginx.resolve(BACK_SNIPPET), back(a, false), StandardCharsets.UTF_8);
            Files.writeString(dry.resolve(BACK_SNIPPET), back(a, true), StandardCharsets.UTF_8);
        }
        Files.writeString(nginx.resolve(CACHE_SNIPPET), lifetimes(a), StandardCharsets.UTF_8);
        Files.writeString(dry.resolve(DRY_RUN_LOG), dryRunLog(), StandardCharsets.UTF_8);
        Files.writeString(dir.resolve("advice.md"), markdown(source, a), StandardCharsets.UTF_8);
    }

    /** The most of a logged path or client a terminal table shows: advice.md has it whole. */
    public static final int TERMINAL_CELL_CHARS = 60;

    /**
     * A logged value (a path, a client, a key) in a Markdown table cell: what is not printable
     * escaped, as everywhere a logged value is shown, and a bar, which would end the cell.
     */
    static String cell(String logged) {
        return Printable.escape(logged).replace("|", "\\|");
    }

    static String f1(double v) {
        return String.format(Locale.ROOT, "%.1f", v);
    }

    static String f2(double v) {
        return String.format(Locale.ROOT, "%.2f", v);
    }

    /** The front limit with the recommended values; {@code dryRun} counts without rejecting or delaying. */
    static String front(Advice a, boolean dryRun) {
        FrontCandidate p = a.frontPick();
        return "# Per-client rate limit recommended by ./run-tests.sh advise: " + p.rate() + " r/s, burst " + p.burst()
                + ".\n# In the model it rejects " + f2(p.rejectedPct()) + " % of the log's requests and hurts "
                + p.hurtClients() + " of " + a.normalClients() + " normal clients.\n"
                + (a.timing().wholeSeconds() ? "# The log's times are whole seconds; its requests were taken as "
                        + a.timing().assumed().words() + " (advice.md, Within a second).\n" : "")
                + (dryRun ? "# Dry run: nginx decides and logs $limit_req_status (REJECTED_DRY_RUN, DELAYED_DRY_RUN)\n"
                        + "# but lets every request through at once. Include limit-req-status-log.conf too.\n" : "")
                + "# http context:\n"
                + "limit_req_zone $binary_remote_addr zone=per_client:10m rate=" + p.rate() + "r/s;\n"
                + "# server or location context:\n"
                + "limit_req zone=per_client burst=" + p.burst() + (a.options().nodelay() ? " nodelay" : "") + ";\n"
                + "limit_req_status 429;\n"
                + (dryRun ? "limit_req_dry_run on;\n" : "");
    }

    static String back(Advice a, boolean dryRun) {
        BackCandidate b = a.back().recommended();
        return "# Global limit in front of the origin recommended by ./run-tests.sh advise: " + b.rate() + " r/s (the\n"
                + "# origin's capacity), burst " + b.burst() + ": in the model " + b.rejected() + " requests rejected, "
                + b.delayed() + " queued (at most " + b.maxDelayMs() + " ms).\n"
                + (dryRun ? "# Dry run: decisions are logged in $limit_req_status, nothing is rejected or delayed.\n" : "")
                + "# http context:\n"
                + "limit_req_zone \"origin\" zone=whole_origin:1m rate=" + b.rate() + "r/s;\n"
                + "# server or location context:\n"
                + "limit_req zone=whole_origin burst=" + b.burst() + ";\n"
                + "limit_req_status 429;\n"
                + (dryRun ? "limit_req_dry_run on;\n" : "");
    }

    /**
     * One location per top path, with its lifetime for 200 answers; the origin's own Cache-Control is
     * overridden. A path with characters that are not printable is left out, said in a comment with
     * them escaped: a config spells most control characters only raw, and raw they would reach the
     * terminal of whoever reads the file.
     */
    static String lifetimes(Advice a) {
        StringBuilder s = new StringBuilder("# Edge-cache lifetimes recommended by ./run-tests.sh advise (server context,\n"
                + "# beside proxy_cache and proxy_pass as in nginx/snippets/front/cache.conf). proxy_ignore_headers makes\n"
                + "# nginx use these lifetimes rather than the origin's Cache-Control: drop it if the origin sends the same.\n");
        for (PathAdvice p : a.paths()) {
            if (!Printable.isPrintable(p.path())) {
                s.append("# Left out: \"").append(Printable.escape(p.path())).append("\" (").append(p.recommended())
                        .append(" s): its characters that are not printable, escaped here, cannot be written as they are.\n");
                continue;
            }
            s.append("location = ").append(quoted(p.path())).append(" {\n")
                    .append("  proxy_cache_valid 200 ").append(p.recommended()).append("s;\n")
                    .append("  proxy_ignore_headers Cache-Control Expires;\n")
                    .append("  proxy_pass http://back_end;\n")
                    .append("}\n");
        }
        return s.toString();
    }

    /** As nginx reads it: bare when plain, else in quotes, in which only a quote and a backslash need escaping. */
    private static String quoted(String path) {
        return path.matches("[A-Za-z0-9._~/-]+") ? path : "\"" + path.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }

    /** The log that {@code advise LOG --nginx-conf FILE} reads nginx's decisions back from (shadow mode). */
    public static final String DRY_RUN_LOG_FILE = "limit-dry-run.log";

    /**
     * The log of limit_req's decisions while the dry run is on: JSON lines whose fields are named as the
     * suite's own log names them, so advise reads it without --log-format, and whose time is
     * {@code $msec} (milliseconds), which comparing the model with nginx request by request needs.
     * {@code $request_time} gives back when each request reached limit_req ($msec is its end).
     */
    public static String dryRunLog() {
        return "# Log what limit_req decided while limit_req_dry_run is on (http context), one JSON object a line.\n"
                + "# $limit_req_status is PASSED, DELAYED, REJECTED, DELAYED_DRY_RUN or REJECTED_DRY_RUN (nginx 1.17.6\n"
                + "# and later), empty where no limit_req applies; $msec is the time in milliseconds, which comparing\n"
                + "# the model with nginx request by request needs ($time_local's whole seconds are too coarse).\n"
                + "log_format limit_dry_run escape=json\n"
                + "  '{\"time\":$msec,\"request_time\":$request_time,\"client\":\"$remote_addr\",'\n"
                + "  '\"method\":\"$request_method\",\"uri\":\"$request_uri\",\"status\":$status,'\n"
                + "  '\"bytes\":$body_bytes_sent,\"limit_req\":\"$limit_req_status\"}';\n"
                + "access_log logs/" + DRY_RUN_LOG_FILE + " limit_dry_run;\n"
                + "# Read it back against the config that wrote it: the model's decision for every request beside\n"
                + "# nginx's own, and their agreement (advise reads it as the suite's JSON log), from the checkout:\n"
                + "#   ./run-tests.sh advise " + DRY_RUN_LOG_FILE + " --nginx-conf nginx.conf\n"
                + "# with the log and your nginx.conf (the one with limit_req_dry_run on) copied here, or their paths.\n"
                + "# Its advice.md says which clients the limits would reject or delay; when they are only the\n"
                + "# scrapers and floods you expect, remove limit_req_dry_run and reload.\n";
    }

    /** The terminal's summary: the recommendation and the tables, shortened. */
    public static String terminal(Advice a) {
        List<String> out = new ArrayList<>();
        out.add(String.format(Locale.ROOT, "log: %d requests from %d clients over %.0f s (mean %.1f r/s, peak %d in one second)",
                a.requests(), a.clients(), a.seconds(), a.meanPerSec(), a.peakPerSec()));
        if (a.timing().wholeSeconds()) {
            out.add(WithinSecondReport.terminal(a));
        }
        out.add("");
        out.add("outliers (far above every other client; counted apart, a limit is meant to hurt them): "
                + (a.outliers().isEmpty() ? "none" : ""));
        for (ClientStat c : a.outliers().stream().limit(10).toList()) {
            out.add(String.format(Locale.ROOT, "  %s  %d requests, peak %.1f r/s", Printable.escape(c.client(), TERMINAL_CELL_CHARS),
                    c.requests(), c.peakPerSec()));
        }
        if (a.outliers().size() > 10) {
            out.add("  ... and " + (a.outliers().size() - 10) + " more (advice.md lists them all)");
        }
        out.add("");
        out.add("front per-client limit, the smallest burst per rate that hurts no more than " + a.allowedHurt() + " of "
                + a.normalClients() + " normal clients (every candidate in advice.md):");
        List<List<String>> rows = new ArrayList<>();
        rows.add(List.of("rate r/s", "burst", "rejected %", "delayed %", "clients hurt", "clients delayed", "outliers hit", "flood/min"));
        for (FrontCandidate f : perRate(a)) {
            rows.add(List.of(String.valueOf(f.rate()), String.valueOf(f.burst()), f2(f.rejectedPct()), f2(f.delayedPct()),
                    String.valueOf(f.hurtClients()), String.valueOf(f.delayedClients()), String.valueOf(f.outliersHurt()),
                    String.valueOf(f.floodPerMinute())));
        }
        align(rows).forEach(l -> out.add("  " + l));
        FrontCandidate p = a.frontPick();
        out.add("  recommended: rate=" + p.rate() + "r/s burst=" + p.burst() + " (the tightest within --max-hurt-clients)");
        out.add("");
        out.add("edge-cache lifetimes, top paths by requests:");
        rows = new ArrayList<>();
        rows.add(List.of("path", "requests", "lifetime s", "hit %", "origin r/s", "oldest s", "why"));
        for (PathAdvice pa : a.paths()) {
            LifetimeCandidate c = pa.candidates().stream().filter(x -> x.seconds() == pa.recommended()).findFirst().orElseThrow();
            rows.add(List.of(Printable.escape(pa.path(), TERMINAL_CELL_CHARS), String.valueOf(pa.requests()),
                    String.valueOf(pa.recommended()), f1(c.hitPct()), f2(c.originPerSec()), String.valueOf(c.oldestSeconds()),
                    pa.why()));
        }
        align(rows).forEach(l -> out.add("  " + l));
        out.add("");
        if (a.back().recommended() == null) {
            out.add("back limit: give --origin-capacity R/s to size it; " + a.back().originBound()
                    + " requests would reach the origin, at most " + a.back().originBoundPeakPerSec() + " in one second");
        } else {
            out.add("back limit at the origin's capacity (" + Advisor.plain(a.back().capacity()) + " r/s); "
                    + a.back().originBound() + " requests reach it, at most " + a.back().originBoundPeakPerSec() + " in one second:");
            rows = new ArrayList<>();
            rows.add(List.of("rate r/s", "burst", "rejected", "queued", "longest wait ms"));
            for (BackCandidate b : a.back().candidates()) {
                rows.add(List.of(String.valueOf(b.rate()), String.valueOf(b.burst()), String.valueOf(b.rejected()),
                        String.valueOf(b.delayed()), String.valueOf(b.maxDelayMs())));
            }
            align(rows).forEach(l -> out.add("  " + l));
            out.add("  recommended: rate=" + a.back().recommended().rate() + "r/s burst=" + a.back().recommended().burst()
                    + " (the smallest burst that rejects nothing)");
        }
        return String.join("\n", out);
    }

    /** Per rate, the smallest burst within the allowed hurt, else the largest burst tried. */
    static List<FrontCandidate> perRate(Advice a) {
        List<FrontCandidate> out = new ArrayList<>();
        for (int rate : Advisor.FRONT_RATES) {
            List<FrontCandidate> r = a.front().stream().filter(f -> f.rate() == rate).toList();
            out.add(r.stream().filter(f -> f.hurtClients() <= a.allowedHurt()).findFirst().orElse(r.get(r.size() - 1)));
        }
        return out;
    }

    static List<String> align(List<List<String>> rows) {
        int[] width = new int[rows.get(0).size()];
        for (List<String> row : rows) {
            for (int i = 0; i < row.size(); i++) {
                width[i] = Math.max(width[i], row.get(i).length());
            }
        }
        List<String> lines = new ArrayList<>();
        for (List<String> row : rows) {
            StringBuilder s = new StringBuilder();
            for (int i = 0; i < row.size(); i++) {
                String cell = row.get(i);
                String fill = " ".repeat(width[i] - cell.length());
                s.append(i == 0 || i == row.size() - 1 && cell.matches(".*[a-z ].*") ? cell + fill : fill + cell).append("  ");
            }
            lines.add(s.toString().stripTrailing());
        }
        return lines;
    }

    static String markdown(String source, Advice a) {
        StringBuilder s = new StringBuilder("# Advice from " + source + "\n\n");
        s.append(String.format(Locale.ROOT, "%d requests from %d clients over %.0f s: mean %.1f r/s, peak %d in one second.%n%n",
                a.requests(), a.clients(), a.seconds(), a.meanPerSec(), a.peakPerSec()));
        s.append("## Assumptions\n\n")
                .append(WithinSecondReport.assumption(a))
                .append("- The limits are nginx 1.22's limit_req, by the suite's model (model/README.md); the front runs in ")
                .append(a.options().nodelay() ? "nodelay" : "queue").append(" mode.\n")
                .append("- A client is *hurt* when at least one of its requests is rejected; a delayed request is counted apart.\n")
                .append("- *Outliers* peak (over ").append(Advisor.PEAK_WINDOW_MS / 1000).append(" s windows) above ")
                .append(Advisor.plain(Advisor.OUTLIER_FACTOR)).append(" times the 95th-percentile client and at least ")
                .append(Advisor.plain(Advisor.OUTLIER_MIN_PER_SEC)).append(" r/s: scrapers and floods, which a limit is meant to hurt, so they do not count against --max-hurt-clients (")
                .append(Advisor.plain(a.options().maxHurtPct())).append(" %, i.e. ").append(a.allowedHurt()).append(" of ")
                .append(a.normalClients()).append(" normal clients).\n")
                .append("- Cache: GET and HEAD answered 200 are cacheable, keyed by the whole URI; a copy is fresh for its lifetime from the miss that fetched it; the lock, the origin's time and stale-while-revalidate are left out (the best case). Only requests the recommended front limit accepts reach the cache.\n")
                .append("- The back limit sees what the front accepted and the cache (at the recommended lifetimes) did not answer; background refreshes are not counted.\n")
                .append("- *Flood/min*: the most one client can push through the front limit in a minute, burst + 1 at once and then the rate.\n\n");
        s.append(WithinSecondReport.markdown(a));
        s.append("## Outliers\n\n");
        if (a.outliers().isEmpty()) {
            s.append("None.\n\n");
        } else {
            s.append("| client | requests | peak r/s |\n|---|---|---|\n");
            a.outliers().forEach(c -> s.append("| ").append(cell(c.client())).append(" | ").append(c.requests()).append(" | ")
                    .append(f1(c.peakPerSec())).append(" |\n"));
            s.append("\n").append(a.outliers().size()).append(" outlier(s), ")
                    .append(a.outliers().stream().mapToLong(ClientStat::requests).sum()).append(" requests.\n\n");
        }
        FrontCandidate p = a.frontPick();
        s.append("## Front per-client limit\n\nRecommended: **rate=").append(p.rate()).append("r/s burst=").append(p.burst())
                .append("**: the tightest (least flood per minute) that hurts no more than ").append(a.allowedHurt())
                .append(" normal clients.\n\n| rate r/s | burst | rejected % | delayed % | normal clients hurt | normal clients delayed | outliers hit | flood/min |\n|---|---|---|---|---|---|---|---|\n");
        for (FrontCandidate f : a.front()) {
            s.append("| ").append(f.rate()).append(" | ").append(f.burst()).append(" | ").append(f2(f.rejectedPct()))
                    .append(" | ").append(f2(f.delayedPct())).append(" | ").append(f.hurtClients()).append(" | ")
                    .append(f.delayedClients()).append(" | ").append(f.outliersHurt()).append(" | ").append(f.floodPerMinute())
                    .append(" |\n");
        }
        s.append("\n## Edge-cache lifetimes\n\nRecommended per path where a longer lifetime adds under ")
                .append(Advisor.plain(Advisor.FLAT_POINTS)).append(" points of hit ratio")
                .append(a.options().maxStalenessSec() == null ? "" : ", capped by --max-staleness " + a.options().maxStalenessSec() + " s")
                .append(". *Oldest* is the oldest content a client could be answered with.\n");
        for (PathAdvice pa : a.paths()) {
            s.append("\n### ").append(Printable.escape(pa.path())).append(" (").append(pa.requests()).append(" requests): ")
                    .append(pa.recommended()).append(" s, ").append(pa.why()).append("\n\n| lifetime s | hit % | origin r/s | oldest s |\n|---|---|---|---|\n");
            for (LifetimeCandidate c : pa.candidates()) {
                s.append("| ").append(c.seconds()).append(" | ").append(f1(c.hitPct())).append(" | ").append(f2(c.originPerSec()))
                        .append(" | ").append(c.oldestSeconds()).append(" |\n");
            }
        }
        s.append("\n## Back limit\n\n");
        if (a.back().recommended() == null) {
            s.append("No --origin-capacity given: ").append(a.back().originBound()).append(" requests would reach the origin, at most ")
                    .append(a.back().originBoundPeakPerSec()).append(" in one second. Give the origin's capacity to size the limit.\n");
        } else {
            BackCandidate b = a.back().recommended();
            s.append("At the origin's capacity (").append(Advisor.plain(a.back().capacity())).append(" r/s, queue mode, so the origin never gets more): ")
                    .append(a.back().originBound()).append(" requests reach it, at most ").append(a.back().originBoundPeakPerSec())
                    .append(" in one second. Recommended: **rate=").append(b.rate()).append("r/s burst=").append(b.burst())
                    .append("**, the smallest burst that rejects nothing (or the largest tried).\n\n| rate r/s | burst | rejected | queued | longest wait ms |\n|---|---|---|---|---|\n");
            for (BackCandidate c : a.back().candidates()) {
                s.append("| ").append(c.rate()).append(" | ").append(c.burst()).append(" | ").append(c.rejected()).append(" | ")
                        .append(c.delayed()).append(" | ").append(c.maxDelayMs()).append(" |\n");
            }
        }
        s.append("\n## nginx\n\nThe recommended values, ready to include: [nginx/").append(FRONT_SNIPPET).append("](nginx/")
                .append(FRONT_SNIPPET).append(")")
                .append(a.back().recommended() == null ? "" : ", [nginx/" + BACK_SNIPPET + "](nginx/" + BACK_SNIPPET + ")")
                .append(", [nginx/").append(CACHE_SNIPPET).append("](nginx/").append(CACHE_SNIPPET).append(").\n\n")
                .append("### Rolling out in dry-run\n\nnginx/dry-run/ holds the same limits with `limit_req_dry_run on;`: nginx decides as it would,"
                        + " logs the decision in `$limit_req_status` and lets every request through. Include"
                        + " nginx/dry-run/" + DRY_RUN_LOG + " to log it. Watch for `REJECTED_DRY_RUN` (would have been"
                        + " rejected) and `DELAYED_DRY_RUN` (would have waited): `./run-tests.sh advise " + DRY_RUN_LOG_FILE
                        + " --nginx-conf nginx.conf` counts them per client, path and minute, and compares each of nginx's"
                        + " decisions with the model's; if only the outliers above show up, the limit separates them from"
                        + " everyone else; then drop `limit_req_dry_run` and reload.\n\n```nginx\n")
                .append(front(a, true)).append("```\n");
        return s.toString();
    }
}
