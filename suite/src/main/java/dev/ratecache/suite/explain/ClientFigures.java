package dev.ratecache.suite.explain;

import dev.ratecache.model.Decision;
import dev.ratecache.model.LimitReq;
import dev.ratecache.model.LimitReqStatus;
import dev.ratecache.suite.explain.ConfigSpec.AppliedLimit;
import dev.ratecache.suite.explain.ConfigSpec.Place;
import java.util.ArrayList;
import java.util.List;

/**
 * What one client sees at a place, from the model of limit_req ({@link LimitReq}, nginx's own
 * arithmetic, the same the simulation decides every front and back request with): each of the
 * place's limit_req directives is a zone of its own and all of them decide each request together,
 * as ngx_http_limit_req_handler does. A request is decided when it arrives (a delayed request is not
 * counted again when its timer fires), so a client's requests at their send times are all it takes.
 */
public final class ClientFigures {
    private ClientFigures() {}

    /**
     * What happened to one run of requests.
     *
     * @param firstRefusedMs        when the first request was refused; -1 when none was
     * @param answeredPerSecondAfter answered a second in the run's second half, once the burst is spent
     * @param refusedPerSecondAfter  refused a second in the run's second half
     */
    public record Outcome(String name, double sentPerSecond, int sent, long durationMs, int answered, int refused,
                          int delayed, long maxDelayMs, long firstRefusedMs, double answeredPerSecondAfter,
                          double refusedPerSecondAfter) {
    }

    /** The four runs at a place: steady at the rate, a burst at once, floods at 2x and 10x the rate. */
    public record Figures(double ratePerSecond, int burst, Outcome steady, Outcome burstAtOnce, Outcome flood2x,
                          Outcome flood10x) {
    }

    /** The limit the figures are named after: the one of the lowest rate (all of them decide together). */
    static AppliedLimit strictest(Place place) {
        return place.limits().stream().min(java.util.Comparator.comparingLong(l -> l.zone().rate().milliPerSecond()))
                .orElseThrow();
    }

    /** The place's figures; the place must have limits whose keys the model can evaluate. */
    public static Figures of(Place place) {
        AppliedLimit strictest = strictest(place);
        double rate = strictest.zone().perSecond();
        int burst = strictest.burst();
        // Long enough that the burst is spent in the first half at 2x the rate, leaving a second half
        // of steady state with 10 requests at the rate or more: at least 10 s, at most a day.
        long duration = Math.min(86_400_000L, Math.max(10_000L,
                (long) Math.ceil(Math.max(3_000.0 * (burst + 1), 20_000.0) / rate)));
        Outcome steady = run(place, "steady", rate, duration, 0);
        Outcome atOnce = run(place, "burst", 0, 0, burst + 2);
        Outcome flood2 = run(place, "2x", 2 * rate, duration, 0);
        Outcome flood10 = run(place, "10x", 10 * rate, duration, 0);
        return new Figures(rate, burst, steady, atOnce, flood2, flood10);
    }

    /**
     * One client's requests: {@code perSecond} evenly spaced for {@code durationMs}, or with
     * {@code atOnce} > 0 that many in the same millisecond.
     */
    static Outcome run(Place place, String name, double perSecond, long durationMs, int atOnce) {
        List<LimitReq.Keyed> zones = new ArrayList<>();
        for (AppliedLimit limit : place.limits()) {
            // One client has one key in each zone; which key it is does not change its own figures.
            zones.add(new LimitReq.Keyed(new LimitReq(limit.spec(place.status())), "client"));
        }
        List<Long> times = new ArrayList<>();
        if (atOnce > 0) {
            for (int i = 0; i < atOnce; i++) {
                times.add(0L);
            }
        } else {
            long n = (long) Math.floor(perSecond * durationMs / 1000.0);
            for (long i = 0; i < n; i++) {
                times.add((long) Math.floor(i * 1000.0 / perSecond));
            }
        }
        int answered = 0;
        int refused = 0;
        int delayed = 0;
        long maxDelay = 0;
        long firstRefused = -1;
        int answeredAfter = 0;
        int refusedAfter = 0;
        for (long t : times) {
            Decision d = LimitReq.decideAll(zones, t);
            if (d.status() == LimitReqStatus.REJECTED) {
                refused++;
                if (firstRefused < 0) {
                    firstRefused = t;
                }
            } else {
                answered++;
                if (d.status() == LimitReqStatus.DELAYED) {
                    delayed++;
                    maxDelay = Math.max(maxDelay, d.delayMs());
                }
            }
            if (2 * t >= durationMs) {
                if (d.status() == LimitReqStatus.REJECTED) {
                    refusedAfter++;
                } else {
                    answeredAfter++;
                }
            }
        }
        double after = durationMs / 2000.0;
        return new Outcome(name, perSecond, times.size(), durationMs, answered, refused, delayed, maxDelay, firstRefused,
                after > 0 ? answeredAfter / after : 0, after > 0 ? refusedAfter / after : 0);
    }
}
