package dev.ratecache.suite.advise;

import dev.ratecache.accesslog.LoggedRequest;
import dev.ratecache.suite.advise.WhatIf.Outcome;
import dev.ratecache.suite.advise.WhatIf.Verdict;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Shadow mode: the model's decisions beside nginx's own, read from the log's {@code $limit_req_status}
 * (usually from a production {@code limit_req_dry_run on}, where nginx decides and logs but refuses
 * nothing). REJECTED and REJECTED_DRY_RUN are the model's REJECTED, DELAYED and DELAYED_DRY_RUN its
 * DELAYED, PASSED its PASSED, and an empty status its "not limited".
 *
 * <p>Request by request when the log's times have milliseconds ({@code $msec}). Whole-second times
 * cannot be: the model's decision turns on gaps of milliseconds; then the counts of rejected and
 * delayed requests are compared per client and minute.
 *
 * @param byRequest       compared request by request (else per client per minute)
 * @param dryRun          nginx's statuses were the *_DRY_RUN forms
 * @param compared        requests (or client-minutes) compared
 * @param exact           of those, agreeing as logged
 * @param atBoundary      agreeing once the request's time moves by 1 or 2 ms (request by request only):
 *                        nginx's logged {@code $msec} is its wall clock, limit_req's its monotonic clock;
 *                        the two roll over to the next millisecond at different instants
 * @param notCompared     requests the model did not predict, or whose logged status is none nginx writes
 * @param table           the model's verdict (rows) against nginx's (columns), request by request
 * @param disagreements   the first disagreements, in the order nginx met them
 */
public record ShadowAgreement(boolean byRequest, boolean dryRun, long compared, long exact, long atBoundary,
                              long notCompared, Map<Verdict, Map<Verdict, Long>> table, List<Disagreement> disagreements) {
    /** How many disagreements are listed. */
    public static final int LISTED = 10;

    /**
     * One disagreement: a request (line, client, path), or a client's minute (line of its first request).
     *
     * @param time  the request's logged time, or the minute
     * @param model the model's verdict, or its counts for the minute ("3 rejected, 0 delayed")
     * @param nginx nginx's, likewise
     */
    public record Disagreement(long line, String time, String client, String path, String model, String nginx) {
    }

    public long agreeing() {
        return exact + atBoundary;
    }

    /** The share compared that agree, at the boundary included, in percent. */
    public double agreementPct() {
        return compared == 0 ? 100 : 100.0 * agreeing() / compared;
    }

    public double exactPct() {
        return compared == 0 ? 100 : 100.0 * exact / compared;
    }

    /** Whether {@code log} carries nginx's decisions to compare with: any request with a status. */
    public static boolean applies(List<LoggedRequest> log) {
        return log.stream().anyMatch(LoggedRequest::hasLimitStatus);
    }

    /** Request by request, from a run that followed nginx ({@link WhatIf#run(WhatIf.Target, List, boolean)}). */
    public static ShadowAgreement byRequest(List<Outcome> followed) {
        long compared = 0;
        long exact = 0;
        long boundary = 0;
        long notCompared = 0;
        Map<Verdict, Map<Verdict, Long>> table = new EnumMap<>(Verdict.class);
        List<Disagreement> first = new ArrayList<>();
        for (Outcome o : followed) {
            Optional<Verdict> nginx = Verdict.ofNginx(o.request().limitStatus());
            if (nginx.isEmpty() || o.verdict() == Verdict.NOT_PREDICTED) {
                notCompared++;
                continue;
            }
            compared++;
            table.computeIfAbsent(o.verdict(), v -> new EnumMap<>(Verdict.class)).merge(nginx.get(), 1L, Long::sum);
            if (o.verdict() == nginx.get()) {
                if (o.shifted() == 0) {
                    exact++;
                } else {
                    boundary++;
                }
            } else if (first.size() < LISTED) {
                first.add(new Disagreement(o.request().line(), o.request().time().toString(), o.request().client(),
                        o.request().path(), o.verdict().name(), shown(o.request().limitStatus())));
            }
        }
        return new ShadowAgreement(true, dryRun(followed), compared, exact, boundary, notCompared, table, first);
    }

    /**
     * Per client and minute, for a log of whole seconds: a client's minute agrees when the model rejects
     * and delays as many of its requests as nginx logged it did.
     */
    public static ShadowAgreement perClientMinute(List<Outcome> outcomes) {
        record Cell(String client, String minute) {
        }
        record Counts(long line, long modelRejected, long modelDelayed, long nginxRejected, long nginxDelayed,
                      boolean unknown) {
        }
        Map<Cell, Counts> cells = new LinkedHashMap<>();
        long notCompared = 0;
        for (Outcome o : outcomes) {
            Optional<Verdict> nginx = Verdict.ofNginx(o.request().limitStatus());
            if (nginx.isEmpty() || o.verdict() == Verdict.NOT_PREDICTED) {
                notCompared++;
                continue;
            }
            Cell c = new Cell(o.request().client(), WhatIfFigures.minute(o));
            Counts was = cells.getOrDefault(c, new Counts(o.request().line(), 0, 0, 0, 0, false));
            cells.put(c, new Counts(Math.min(was.line(), o.request().line()),
                    was.modelRejected() + (o.verdict() == Verdict.REJECTED ? 1 : 0),
                    was.modelDelayed() + (o.verdict() == Verdict.DELAYED ? 1 : 0),
                    was.nginxRejected() + (nginx.get() == Verdict.REJECTED ? 1 : 0),
                    was.nginxDelayed() + (nginx.get() == Verdict.DELAYED ? 1 : 0), false));
        }
        long exact = 0;
        List<Disagreement> first = new ArrayList<>();
        Map<Cell, Counts> ordered = new TreeMap<>(Comparator.comparing(Cell::minute).thenComparing(Cell::client));
        ordered.putAll(cells);
        for (Map.Entry<Cell, Counts> e : ordered.entrySet()) {
            Counts n = e.getValue();
            if (n.modelRejected() == n.nginxRejected() && n.modelDelayed() == n.nginxDelayed()) {
                exact++;
            } else if (first.size() < LISTED) {
                first.add(new Disagreement(n.line(), e.getKey().minute(), e.getKey().client(), "",
                        n.modelRejected() + " rejected, " + n.modelDelayed() + " delayed",
                        n.nginxRejected() + " rejected, " + n.nginxDelayed() + " delayed"));
            }
        }
        return new ShadowAgreement(false, dryRun(outcomes), cells.size(), exact, 0, notCompared, Map.of(), first);
    }

    private static boolean dryRun(List<Outcome> outcomes) {
        return outcomes.stream().anyMatch(o -> o.request().limitStatus().endsWith("_DRY_RUN"));
    }

    /** nginx's status as logged; "(none)" for an empty one. */
    private static String shown(String status) {
        return status.isEmpty() ? "(none)" : status;
    }
}
