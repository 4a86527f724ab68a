package dev.ratecache.suite.advise;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.ratecache.accesslog.Printable;
import dev.ratecache.suite.advise.ShadowAgreement.Disagreement;
import dev.ratecache.suite.advise.WhatIf.Outcome;
import dev.ratecache.suite.advise.WhatIf.Verdict;
import dev.ratecache.suite.advise.WhatIfFigures.Tally;
import dev.ratecache.suite.explain.ConfigSpec.NotPredicted;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code advise LOG --nginx-conf FILE}'s what-if and shadow comparison, written as advise writes the
 * rest: a section of advice.md, the terminal's summary, and beside them whatif.json (every figure)
 * and whatif.csv (one row per request: the model's verdict, and nginx's when the log has it).
 *
 * @param config      the config as the user named it
 * @param checked     what nginx -t said
 * @param server      the server chosen, and how
 * @param wholeSeconds the log's times are whole seconds
 * @param outcomes    the model's decision per request (the plain run, not the shadow's)
 * @param figures     their figures
 * @param shadow      the agreement with nginx's logged decisions; null when the log has none
 * @param statusField the log's format has a field for nginx's {@code $limit_req_status}
 * @param unmodelled  what in the config the model cannot take (explain's list), and unreadable locations
 */
public record WhatIfReport(String config, String checked, ChosenServer server, boolean wholeSeconds, List<Outcome> outcomes,
                           WhatIfFigures figures, ShadowAgreement shadow, boolean statusField, List<NotPredicted> unmodelled) {
    public static final String JSON = "whatif.json";
    public static final String CSV = "whatif.csv";
    /** Rows of each table advice.md shows; whatif.json has them all. */
    static final int MARKDOWN_ROWS = 20;
    /** Rows of each table the terminal shows. */
    static final int TERMINAL_ROWS = 5;

    /** As below, for a log whose format may have a limit status field ({@code statusField}: it has). */
    public static WhatIfReport of(String config, String checked, ChosenServer server, List<dev.ratecache.accesslog.LoggedRequest> log,
            boolean wholeSeconds) {
        return of(config, checked, server, log, wholeSeconds, false);
    }

    /** The what-if of {@code log} under {@code server}, with the shadow comparison when the log carries nginx's decisions. */
    public static WhatIfReport of(String config, String checked, ChosenServer server, List<dev.ratecache.accesslog.LoggedRequest> log,
            boolean wholeSeconds, boolean statusField) {
        WhatIf.Target target = server.target();
        List<Outcome> outcomes = WhatIf.run(target, log);
        ShadowAgreement shadow = null;
        if (ShadowAgreement.applies(log)) {
            shadow = wholeSeconds ? ShadowAgreement.perClientMinute(outcomes)
                    : ShadowAgreement.byRequest(WhatIf.run(target, log, true));
        }
        List<NotPredicted> unmodelled = new ArrayList<>(server.spec().notPredicted());
        target.locations().unreadable().forEach((where, why) -> unmodelled.add(new NotPredicted(where, "location", why)));
        return new WhatIfReport(config, checked, server, wholeSeconds, outcomes, WhatIfFigures.of(outcomes), shadow, statusField,
                unmodelled);
    }

    private static String pct(long part, long whole) {
        return String.format(Locale.ROOT, "%.2f", whole == 0 ? 0.0 : 100.0 * part / whole);
    }

    private static String f2(double v) {
        return String.format(Locale.ROOT, "%.2f", v);
    }

    /** The one line that says how the shadow comparison came out. */
    public String shadowLine() {
        if (shadow == null && statusField) {
            return "shadow: the log's limit status field is empty on every line: nginx applied no limit_req to these"
                    + " requests, so there is nothing to compare";
        }
        if (shadow == null) {
            return "shadow: the log carries no $limit_req_status to compare with (log it as nginx/dry-run/"
                    + AdviceWriter.DRY_RUN_LOG + " shows)";
        }
        if (!shadow.byRequest()) {
            return String.format(Locale.ROOT, "shadow: the log's times are whole seconds, too coarse to compare request by"
                    + " request; per client per minute, %d of %d agree (%s %%)", shadow.exact(), shadow.compared(),
                    f2(shadow.agreementPct()));
        }
        return String.format(Locale.ROOT, "shadow: the model agrees with nginx%s on %d of %d requests (%s %%): %d as logged,"
                + " %d within the clocks' 2 ms; %d disagree%s", shadow.dryRun() ? "'s dry run" : "", shadow.agreeing(),
                shadow.compared(), f2(shadow.agreementPct()), shadow.exact(), shadow.atBoundary(),
                shadow.compared() - shadow.agreeing(), shadow.notCompared() == 0 ? ""
                        : "; " + shadow.notCompared() + " not compared (not predicted)");
    }

    /** The terminal's summary. */
    public String terminal() {
        List<String> out = new ArrayList<>();
        out.add("what if: " + config + ", " + server.label() + " (" + server.how() + ")");
        out.add(summary());
        if (!figures.hardestHit().isEmpty()) {
            out.add("  hit hardest:");
            for (Tally t : figures.hardestHit().stream().limit(TERMINAL_ROWS).toList()) {
                out.add(String.format(Locale.ROOT, "    %s  %d of %d rejected, %d delayed (longest %d ms)",
                        Printable.escape(t.name(), AdviceWriter.TERMINAL_CELL_CHARS), t.rejected(), t.requests(), t.delayed(),
                        t.longestDelayMs()));
            }
        }
        figures.notPredicted().forEach((why, n) -> out.add("  not predicted: " + n + " requests: " + why));
        out.add(shadowLine());
        if (shadow != null) {
            for (Disagreement d : shadow.disagreements().stream().limit(TERMINAL_ROWS).toList()) {
                out.add("  " + disagreement(d));
            }
        }
        return String.join("\n", out);
    }

    private String disagreement(Disagreement d) {
        return shadow.byRequest()
                ? "line " + d.line() + " (" + d.time() + ", " + Printable.escape(d.client(), 40) + " " + Printable.escape(d.path(), 60)
                        + "): model " + d.model() + ", nginx " + d.nginx()
                : d.time() + " " + Printable.escape(d.client(), 40) + " (first line " + d.line() + "): model " + d.model()
                        + ", nginx " + d.nginx();
    }

    private String summary() {
        long limited = figures.count(Verdict.PASSED) + figures.count(Verdict.DELAYED) + figures.count(Verdict.REJECTED);
        return String.format(Locale.ROOT, "  %d requests: %d limited, of which %d rejected (%s %%) and %d delayed (%s %%);"
                        + " %d not limited; %d not predicted", figures.requests(), limited, figures.count(Verdict.REJECTED),
                pct(figures.count(Verdict.REJECTED), figures.requests()), figures.count(Verdict.DELAYED),
                pct(figures.count(Verdict.DELAYED), figures.requests()), figures.count(Verdict.NOT_LIMITED),
                figures.count(Verdict.NOT_PREDICTED));
    }

    /** advice.md's section. */
    public String markdown() {
        StringBuilder s = new StringBuilder("## Your config: what if\n\n");
        s.append("The model's limit_req decision for every request of the log under ").append(AdviceWriter.cell(config))
                .append(" (").append(checked).append("), ").append(AdviceWriter.cell(server.label())).append(": ")
                .append(server.how()).append(". Each request reached limit_req at its logged time less its"
                        + " `$request_time` (when logged), found its location by nginx's search and was decided by one"
                        + " state per key and zone, shared by every location that uses the zone."
                        + (wholeSeconds ? " The log's times are whole seconds: requests of one second are taken at its"
                        + " start, so the figures are the bunched reading." : "")
                        + " All rows are in " + JSON + ", every request in " + CSV + ".\n\n");
        s.append(summary().strip()).append(".\n\n");
        if (!figures.notPredicted().isEmpty()) {
            s.append("Not predicted:\n\n");
            figures.notPredicted().forEach((why, n) -> s.append("- ").append(n).append(" requests: ").append(why).append('\n'));
            s.append('\n');
        }
        if (!unmodelled.isEmpty()) {
            s.append("What the model cannot take in the config (its figures leave it out):\n\n");
            unmodelled.forEach(n -> s.append("- ").append(n.where()).append(" `").append(n.directive()).append("`: ")
                    .append(n.reason()).append('\n'));
            s.append('\n');
        }
        table(s, "Clients hit hardest", "client", figures.hardestHit(), false);
        table(s, "Per key", "key", figures.perKey(), false);
        table(s, "Per path", "path", figures.perPath(), true);
        table(s, "Per minute (UTC)", "minute", figures.perMinute(), false);
        s.append("## Shadow: the model beside nginx\n\n").append(shadowLine().substring("shadow: ".length())).append(".\n\n");
        if (shadow != null) {
            if (shadow.byRequest()) {
                s.append("Compared request by request: nginx's `$limit_req_status` (REJECTED_DRY_RUN as REJECTED,"
                        + " DELAYED_DRY_RUN as DELAYED, empty as not limited) beside the model's. nginx logs `$msec` from its"
                        + " wall clock, while limit_req reads its monotonic clock; the two roll over to the next millisecond"
                        + " at different instants, so a request's logged time may be 1 or 2 ms off the one limit_req used."
                        + " A disagreement that moving the request by up to 2 ms turns into agreement is counted as one at the"
                        + " clocks' boundary, and the model then goes on from nginx's decision.\n\n");
                s.append("| model \\ nginx |");
                List<Verdict> columns = List.of(Verdict.PASSED, Verdict.DELAYED, Verdict.REJECTED, Verdict.NOT_LIMITED);
                columns.forEach(c -> s.append(' ').append(c).append(" |"));
                s.append("\n|---|---|---|---|---|\n");
                for (Verdict row : columns) {
                    s.append("| ").append(row).append(" |");
                    for (Verdict c : columns) {
                        s.append(' ').append(shadow.table().getOrDefault(row, Map.of()).getOrDefault(c, 0L)).append(" |");
                    }
                    s.append('\n');
                }
                s.append('\n');
            } else {
                s.append("The log's times are whole seconds, and the model's decisions turn on gaps of milliseconds: they"
                        + " cannot be compared request by request. Per client and minute, the model's count of rejected and"
                        + " delayed requests is compared with nginx's.\n\n");
            }
            if (!shadow.disagreements().isEmpty()) {
                s.append("The first disagreements:\n\n");
                shadow.disagreements().forEach(d -> s.append("- ").append(AdviceWriter.cell(disagreement(d))).append('\n'));
                s.append('\n');
            }
        }
        return s.toString();
    }

    private static void table(StringBuilder s, String title, String name, List<Tally> rows, boolean location) {
        s.append("### ").append(title).append("\n\n");
        if (rows.isEmpty()) {
            s.append("None.\n\n");
            return;
        }
        s.append("| ").append(name).append(location ? " | location" : "").append(" | requests | rejected | rejected % | delayed |"
                + " longest delay ms |\n|---|").append(location ? "---|" : "").append("---|---|---|---|---|\n");
        for (Tally t : rows.stream().limit(MARKDOWN_ROWS).toList()) {
            s.append("| ").append(AdviceWriter.cell(t.name())).append(location ? " | " + AdviceWriter.cell(t.detail()) : "")
                    .append(" | ").append(t.requests()).append(" | ").append(t.rejected()).append(" | ").append(f2(t.rejectedPct()))
                    .append(" | ").append(t.delayed()).append(" | ").append(t.longestDelayMs()).append(" |\n");
        }
        if (rows.size() > MARKDOWN_ROWS) {
            s.append("\n... and ").append(rows.size() - MARKDOWN_ROWS).append(" more in ").append(JSON).append(".\n");
        }
        s.append('\n');
    }

    /** Writes whatif.json and whatif.csv into {@code dir}. */
    public void write(Path dir) throws IOException {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("config", config);
        json.put("checked", checked);
        json.put("server", server.label());
        json.put("serverChosen", server.how());
        json.put("wholeSeconds", wholeSeconds);
        json.put("requests", figures.requests());
        json.put("verdicts", figures.verdicts());
        json.put("notPredicted", figures.notPredicted());
        json.put("unmodelled", unmodelled);
        json.put("hardestHit", figures.hardestHit());
        json.put("perKey", figures.perKey());
        json.put("perPath", figures.perPath());
        json.put("perMinute", figures.perMinute());
        if (shadow != null) {
            Map<String, Object> sh = new LinkedHashMap<>();
            sh.put("byRequest", shadow.byRequest());
            sh.put("dryRun", shadow.dryRun());
            sh.put("compared", shadow.compared());
            sh.put("agreeing", shadow.agreeing());
            sh.put("exact", shadow.exact());
            sh.put("atBoundary", shadow.atBoundary());
            sh.put("agreementPct", shadow.agreementPct());
            sh.put("notCompared", shadow.notCompared());
            sh.put("table", shadow.table());
            sh.put("disagreements", shadow.disagreements());
            json.put("shadow", sh);
        }
        new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(dir.resolve(JSON).toFile(), json);
        try (BufferedWriter w = Files.newBufferedWriter(dir.resolve(CSV), StandardCharsets.UTF_8)) {
            w.write("line,at_ms,client,method,path,location,key,model,delay_ms,nginx,why\n");
            for (Outcome o : outcomes) {
                w.write(o.request().line() + "," + o.atMs() + "," + csv(o.request().client()) + "," + csv(o.request().method())
                        + "," + csv(o.request().path()) + "," + csv(o.location()) + "," + csv(o.key()) + "," + o.verdict() + ","
                        + o.delayMs() + "," + csv(o.request().limitStatus()) + "," + csv(o.why() == null ? "" : o.why())
                        + "\n");
            }
        }
    }

    /** A CSV field: quoted when it holds a comma, a quote or a line break (RFC 4180), escaped when not printable. */
    static String csv(String value) {
        String v = Printable.escape(value);
        return v.contains(",") || v.contains("\"") ? "\"" + v.replace("\"", "\"\"") + "\"" : v;
    }
}
