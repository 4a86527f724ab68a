package dev.ratecache.suite.advise;

import dev.ratecache.suite.advise.QuotaAdvisor.Candidate;
import dev.ratecache.suite.advise.QuotaAdvisor.QuotaAdvice;
import dev.ratecache.suite.advise.QuotaAdvisor.TierQuota;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/** advise --key-field on a log of several UTC days: the daily quota per tier, in advice.md and the terminal. */
public final class QuotaAdviceReport {
    private QuotaAdviceReport() {}

    static final String HEADING = "## Daily quota per tier";

    /** The table's columns, the same in advice.md and the terminal. */
    private static final List<String> COLUMNS = List.of("N/day", "key-days cut", "key-days cut %", "normal keys cut",
            "outlier keys cut", "rejected", "rejected %", "rejected, sliding");

    private static List<String> row(Candidate c) {
        return List.of(String.valueOf(c.limit()), String.valueOf(c.keyDaysCut()), AdviceWriter.f2(c.keyDaysCutPct()),
                String.valueOf(c.keysCut()), String.valueOf(c.outlierKeysCut()), String.valueOf(c.rejected()),
                AdviceWriter.f2(c.rejectedPct()), String.valueOf(c.rejectedSliding()));
    }

    private static String days(QuotaAdvice q) {
        return q.firstDay() + " to " + q.lastDay() + " (" + q.wholeDays() + (q.wholeDays() == 1 ? " day" : " days") + ")";
    }

    /** The terminal's lines: one for no advice, else a table per tier. */
    public static String terminal(QuotaAdvice q) {
        if (!q.advised()) {
            return "daily quota per tier: none advised: " + q.none();
        }
        List<String> out = new ArrayList<>();
        out.add("daily quota per tier over the whole UTC days " + days(q) + ", the tightest that cuts at most "
                + Advisor.plain(q.maxCutPct()) + " % of a tier's normal key-days:");
        for (TierQuota t : q.tiers()) {
            if (t.pick() == null) {
                out.add("  " + t.tier() + ": " + (t.keys() == 0 ? "no requests on a whole day" : "no normal key"));
                continue;
            }
            out.add("  " + t.tier() + ": " + t.keys() + " keys (" + t.outliers().size()
                    + (t.outliers().size() == 1 ? " outlier), " : " outliers), ") + t.keyDays()
                    + " normal key-days, median " + t.medianDay() + " a day; recommended " + t.pick().limit() + "/d");
            List<List<String>> rows = new ArrayList<>();
            rows.add(COLUMNS);
            t.candidates().forEach(c -> rows.add(row(c)));
            AdviceWriter.align(rows).forEach(l -> out.add("    " + l));
        }
        return String.join("\n", out);
    }

    public static String markdown(QuotaAdvice q) {
        StringBuilder s = new StringBuilder("\n").append(HEADING).append("\n\n");
        if (!q.advised()) {
            return s.append("None advised: ").append(q.none()).append(".\n").toString();
        }
        s.append("Counted over the log's whole UTC days, ").append(days(q)).append(": the first day counts when the log"
                + " starts within its first hour, the last when it ends within its last. A *key-day* is a key and a"
                + " day on which it sent a request; a quota of N *cuts* it when the key sent more than N that day. A"
                + " key is an *outlier* when its busiest day is over ").append(Advisor.plain(Advisor.OUTLIER_FACTOR))
                .append(" times the tier's 95th-percentile key's busiest day; outliers are what a quota is meant to"
                        + " stop, and do not count against the share. Recommended per tier: the tightest N a UTC day that"
                        + " cuts at most ").append(Advisor.plain(q.maxCutPct()))
                .append(" % of the tier's normal key-days (`--max-hurt-clients`), i.e. the nearest-rank ")
                .append(Advisor.plain(100 - q.maxCutPct())).append("th percentile of their daily counts. Keys and"
                        + " tiers as above; a request without a key is counted by its address in `anonymous`.\n\n");
        s.append("*Rejected* is what the model's quota rejects on those days, outliers' requests included: with calendar"
                + " (or fixed) windows of a day it is each key-day's count over N; *rejected, sliding* is the sliding"
                + " window (the default), whose estimate carries part of the day before into each day, so a key that"
                + " spent its quota late yesterday has less of it early today.\n\n");
        s.append("| tier | keys | requests | normal keys | normal key-days | may cut | median day | recommended | key-days cut % | normal keys cut | outlier keys cut | rejected | rejected, sliding |\n")
                .append("|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
        for (TierQuota t : q.tiers()) {
            s.append("| ").append(t.tier()).append(" | ").append(t.keys()).append(" | ").append(t.requests()).append(" | ")
                    .append(t.normalKeys()).append(" | ").append(t.keyDays()).append(" | ").append(t.allowedCut())
                    .append(" | ").append(t.medianDay()).append(" | ");
            Candidate p = t.pick();
            if (p == null) {
                s.append(t.keys() == 0 ? "no requests on a whole day" : "no normal key").append(" | | | | | |\n");
            } else {
                s.append("**").append(p.limit()).append("/d** | ").append(AdviceWriter.f2(p.keyDaysCutPct())).append(" | ")
                        .append(p.keysCut()).append(" | ").append(p.outlierKeysCut()).append(" | ").append(p.rejected())
                        .append(" | ").append(p.rejectedSliding()).append(" |\n");
            }
        }
        for (TierQuota t : q.tiers()) {
            if (t.pick() == null) {
                continue;
            }
            s.append("\n### ").append(t.tier()).append(": ").append(t.pick().limit()).append(" a day\n\n")
                    .append("| ").append(String.join(" | ", COLUMNS)).append(" |\n|")
                    .append("---|".repeat(COLUMNS.size())).append("\n");
            for (Candidate c : t.candidates()) {
                List<String> cells = new ArrayList<>(row(c));
                if (c.limit() == t.pick().limit()) {
                    cells.set(0, "**" + cells.get(0) + "**");
                }
                s.append("| ").append(String.join(" | ", cells)).append(" |\n");
            }
            if (!t.outliers().isEmpty()) {
                s.append("\nOutlier keys: ").append(t.outliers().stream().limit(10)
                        .map(o -> AdviceWriter.cell(o.key()) + " (busiest day " + o.busiestDay() + ")")
                        .collect(Collectors.joining(", ")))
                        .append(t.outliers().size() > 10 ? " and " + (t.outliers().size() - 10) + " more" : "")
                        .append(".\n");
            }
        }
        return s.toString();
    }
}
