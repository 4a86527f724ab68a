package dev.ratecache.suite.advise;

import dev.ratecache.accesslog.Printable;
import dev.ratecache.accesslog.WithinSecond;
import dev.ratecache.suite.advise.Advisor.Advice;
import dev.ratecache.suite.advise.Advisor.BackCandidate;
import dev.ratecache.suite.advise.Advisor.FrontCandidate;
import dev.ratecache.suite.advise.Advisor.PathAdvice;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * For a log of whole seconds, what the advice assumed about where in its second each request came,
 * and what would change at the other reading: the user decides whether the difference matters for
 * their traffic (browsers fetch a page's assets together; API clients rarely do).
 */
final class WithinSecondReport {
    private WithinSecondReport() {}

    /** The bullet for advice.md's assumptions: how the requests' times were taken. */
    static String assumption(Advice a) {
        if (!a.timing().wholeSeconds()) {
            return "- Each request reaches nginx at its logged time; the log's clients are the front limit's keys ($binary_remote_addr).\n";
        }
        WithinSecond assumed = a.timing().assumed();
        return "- The log's times are whole seconds, so where in its second a request came is not known: every figure"
                + " and recommendation here takes each second's requests to have come " + assumed.words() + " (`--within-second "
                + assumed.spelling() + "`). *Within a second* below gives the other reading, " + assumed.other().words()
                + ", and what it would change. The log's clients are the front limit's keys ($binary_remote_addr).\n";
    }

    /** advice.md's section comparing the two readings; empty when the log's times have fractions of a second. */
    static String markdown(Advice a) {
        if (!a.timing().wholeSeconds()) {
            return "";
        }
        Advice o = a.timing().other();
        WithinSecond assumed = a.timing().assumed();
        FrontCandidate pick = a.frontPick();
        FrontCandidate pickThere = o.front(pick.rate(), pick.burst());
        String limit = limit(pick);
        StringBuilder s = new StringBuilder("## Within a second\n\n");
        s.append("The log's times are whole seconds, as nginx's `$time_local` (the combined and common formats) and"
                + " `$time_iso8601` write them: a page and its assets logged in the same second read as one instant, though"
                + " they came apart. The advice was worked out at two readings of each second. **Assumed** for every"
                + " figure and recommendation in this file: requests came ").append(assumed.words())
                .append(". The other reading: ").append(assumed.other().words()).append(". The real traffic usually lies"
                        + " between the two, though neither is a strict bound, since the end of one second may meet the start"
                        + " of the next. Run advise with `--within-second ").append(assumed.other().spelling())
                .append("` to have the recommendation made on the other reading.\n\n");
        s.append("| | ").append(assumed.shortWords()).append(" (assumed) | ").append(assumed.other().shortWords())
                .append(" |\n|---|---|---|\n");
        row(s, "front limit recommended", limit(pick), limit(o.frontPick()));
        row(s, "with " + limit + ": rejected %", AdviceWriter.f2(pick.rejectedPct()), AdviceWriter.f2(pickThere.rejectedPct()));
        row(s, "with " + limit + ": delayed %", AdviceWriter.f2(pick.delayedPct()), AdviceWriter.f2(pickThere.delayedPct()));
        row(s, "with " + limit + ": normal clients hurt", pick.hurtClients() + " of " + a.normalClients() + " (" + a.allowedHurt()
                + " allowed)", pickThere.hurtClients() + " of " + o.normalClients() + " (" + o.allowedHurt() + " allowed)");
        row(s, "with " + limit + ": normal clients delayed", String.valueOf(pick.delayedClients()),
                String.valueOf(pickThere.delayedClients()));
        row(s, "busiest second, requests", String.valueOf(a.peakPerSec()), String.valueOf(o.peakPerSec()));
        row(s, "requests reaching the origin (busiest second)", a.back().originBound() + " (" + a.back().originBoundPeakPerSec() + ")",
                o.back().originBound() + " (" + o.back().originBoundPeakPerSec() + ")");
        if (a.back().recommended() != null) {
            row(s, "back limit recommended", back(a.back().recommended()), back(o.back().recommended()));
        }
        s.append("\n").append(changes(a)).append("\n\n");
        return s.toString();
    }

    /** The terminal's line: what was assumed and whether the front recommendation hangs on it. */
    static String terminal(Advice a) {
        if (!a.timing().wholeSeconds()) {
            return "";
        }
        WithinSecond assumed = a.timing().assumed();
        FrontCandidate other = a.timing().other().frontPick();
        return "times are whole seconds: assumed " + assumed.words() + "; " + assumed.other().shortWords() + ", the front"
                + " limit recommended would be " + (same(a.frontPick(), other) ? "the same" : limit(other))
                + " (advice.md, Within a second)";
    }

    /** In words, how each recommendation would change at the other reading. */
    static String changes(Advice a) {
        Advice o = a.timing().other();
        WithinSecond other = a.timing().assumed().other();
        List<String> out = new ArrayList<>();
        FrontCandidate mine = a.frontPick();
        FrontCandidate theirs = o.frontPick();
        FrontCandidate pickThere = o.front(mine.rate(), mine.burst());
        if (same(mine, theirs)) {
            out.add("At the other reading (" + other.shortWords() + ") the front recommendation would be the same, " + limit(mine) + ".");
        } else {
            out.add(String.format(Locale.ROOT, "At the other reading (%s) the front recommendation would be **%s**, %s than %s"
                    + " (%d rather than %d requests a flooding client could push through in a minute).", other.shortWords(),
                    limit(theirs), theirs.floodPerMinute() < mine.floodPerMinute() ? "tighter" : "looser", limit(mine),
                    theirs.floodPerMinute(), mine.floodPerMinute()));
        }
        out.add(String.format(Locale.ROOT, "There, %s would hurt %d of %d normal clients (%d allowed) and delay %s %% of the"
                + " requests, against %d and %s %% as assumed.", limit(mine), pickThere.hurtClients(), o.normalClients(),
                o.allowedHurt(), AdviceWriter.f2(pickThere.delayedPct()), mine.hurtClients(), AdviceWriter.f2(mine.delayedPct())));
        Map<String, Integer> theirLifetimes = o.paths().stream().collect(Collectors.toMap(PathAdvice::path, PathAdvice::recommended));
        List<String> lifetimes = a.paths().stream()
                .filter(p -> theirLifetimes.containsKey(p.path()) && theirLifetimes.get(p.path()) != p.recommended())
                .map(p -> Printable.escape(p.path()) + " " + theirLifetimes.get(p.path()) + " s rather than " + p.recommended() + " s").toList();
        out.add(lifetimes.isEmpty() ? "The edge-cache lifetimes would be the same."
                : "The edge-cache lifetimes would differ: " + String.join(", ", lifetimes) + ".");
        if (a.back().recommended() != null) {
            BackCandidate b = a.back().recommended();
            BackCandidate ob = o.back().recommended();
            out.add(b.burst() == ob.burst() ? "The back limit would be the same."
                    : "The back limit's burst would be " + ob.burst() + " rather than " + b.burst() + ".");
        }
        return String.join(" ", out);
    }

    private static void row(StringBuilder s, String what, String assumed, String other) {
        s.append("| ").append(what).append(" | ").append(assumed).append(" | ").append(other).append(" |\n");
    }

    private static boolean same(FrontCandidate a, FrontCandidate b) {
        return a.rate() == b.rate() && a.burst() == b.burst();
    }

    private static String limit(FrontCandidate f) {
        return "rate=" + f.rate() + "r/s burst=" + f.burst();
    }

    private static String back(BackCandidate b) {
        return "rate=" + b.rate() + "r/s burst=" + b.burst();
    }
}
