package dev.ratecache.suite.migrate;

import dev.ratecache.accesslog.LoggedRequest;
import dev.ratecache.accesslog.WithinSecond;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Requests that both limits decide, one after the other, by their time and the key the limit counts
 * by: traffic generated from the limit (a steady client, a burst after an idle minute, floods), or
 * the user's access log.
 *
 * @param name     a short name, for the JSON and the report's headings (steady, burst, flood-2x, ...)
 * @param words    the traffic in words, as the sentence says it ("a flood at 2x the rate")
 * @param requests in order of time
 * @param phases   its parts in order, each from its start: what a second of the traffic is named by
 * @param clock    whether its times are the log's own clock (said as UTC times), not seconds from its start
 */
public record Traffic(String name, String words, List<Request> requests, List<Phase> phases, boolean clock) {

    /** One request: when (ms) and the key it is counted by (the client's address, or its key). */
    public record Request(long timeMs, String key) {}

    /** A part of the traffic from {@code startMs} on, named as a sentence says "the first second of ...". */
    public record Phase(String words, long startMs) {}

    /** Where generated traffic starts on the limits' clocks: any time would do, but not 0. */
    static final long START_MS = 1_000_000;

    /** How long the steady client and the floods send: a minute. */
    static final long MINUTE_MS = 60_000;

    public Traffic {
        requests = List.copyOf(requests);
        phases = List.copyOf(phases);
    }

    /** The four traffics of a limit of {@code rate} r/s and {@code burst}, one client each. */
    public static List<Traffic> generated(int rate, int burst) {
        List<Traffic> all = new ArrayList<>();
        all.add(new Traffic("steady", "a steady client at the rate", atRate("10.0.0.1", rate, START_MS, MINUTE_MS),
                List.of(new Phase("the steady minute", START_MS)), false));
        // Ten seconds at the rate, an idle minute, then twice what nginx passes at once, at once, and the rate again.
        long idleEnds = START_MS + 10_000 + MINUTE_MS;
        List<Request> bursty = new ArrayList<>(atRate("10.0.0.2", rate, START_MS, 10_000));
        for (int i = 0; i < 2 * (burst + 1); i++) {
            bursty.add(new Request(idleEnds, "10.0.0.2"));
        }
        bursty.addAll(atRate("10.0.0.2", rate, idleEnds + Math.max(1, Math.round(1000.0 / rate)), 10_000));
        all.add(new Traffic("burst", "a burst of " + 2 * (burst + 1) + " after an idle minute", bursty,
                List.of(new Phase("the warm-up at the rate", START_MS),
                        new Phase("the idle minute", START_MS + 10_000),
                        new Phase("the burst after an idle minute", idleEnds)), false));
        all.add(new Traffic("flood-2x", "a flood at 2x the rate", atRate("10.0.0.3", 2 * rate, START_MS, MINUTE_MS),
                List.of(new Phase("the flood", START_MS)), false));
        all.add(new Traffic("flood-10x", "a flood at 10x the rate", atRate("10.0.0.4", 10 * rate, START_MS, MINUTE_MS),
                List.of(new Phase("the flood", START_MS)), false));
        return all;
    }

    /** One client {@code key} at {@code rate} r/s for {@code forMs}, evenly spaced, from {@code fromMs}. */
    static List<Request> atRate(String key, int rate, long fromMs, long forMs) {
        List<Request> out = new ArrayList<>();
        long n = forMs * rate / 1000;
        for (long i = 0; i < n; i++) {
            out.add(new Request(fromMs + Math.round(i * 1000.0 / rate), key));
        }
        return out;
    }

    /**
     * The user's log as the limit sees it: each request by its key when the log has one (--key-field),
     * else its client's address; a log of whole seconds spread over each second in the log's order, as
     * the replay sends it.
     */
    public static Traffic fromLog(String shown, List<LoggedRequest> logged, boolean wholeSeconds) {
        List<LoggedRequest> inOrder = new ArrayList<>(logged);
        inOrder.sort(Comparator.comparing(LoggedRequest::time));
        long[] times = inOrder.stream().mapToLong(r -> r.time().toInstant().toEpochMilli()).toArray();
        if (wholeSeconds) {
            times = WithinSecond.SPREAD.place(times);
        }
        List<Request> requests = new ArrayList<>();
        for (int i = 0; i < inOrder.size(); i++) {
            LoggedRequest r = inOrder.get(i);
            requests.add(new Request(times[i], r.hasKey() ? r.key() : r.client()));
        }
        long start = requests.isEmpty() ? 0 : requests.get(0).timeMs();
        return new Traffic("log", "your log " + shown, requests, List.of(new Phase("the log", start)), true);
    }

    /** When the traffic starts. */
    public long startMs() {
        return phases.get(0).startMs();
    }

    private static final DateTimeFormatter CLOCK = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss").withZone(ZoneOffset.UTC);

    /**
     * Seconds {@code fromMs} to {@code toMs} (both inside, the second of each) in words: "in the first
     * second of the burst after an idle minute", "in seconds 3 to 9 of the flood", "from 2026-11-29
     * 10:00:01 to 10:00:04 UTC".
     */
    public String when(long fromMs, long toMs) {
        if (clock) {
            String from = CLOCK.format(Instant.ofEpochMilli(fromMs));
            String to = CLOCK.format(Instant.ofEpochMilli(toMs));
            return from.equals(to) ? "at " + from + " UTC" : "from " + from + " to " + to.substring(11) + " UTC";
        }
        Phase phase = phaseAt(fromMs);
        long first = (fromMs - phase.startMs()) / 1000 + 1;
        long last = (toMs - phase.startMs()) / 1000 + 1;
        Phase end = phaseAt(toMs);
        if (!end.equals(phase)) {
            return "from second " + first + " of " + phase.words() + " to second " + ((toMs - end.startMs()) / 1000 + 1)
                    + " of " + end.words();
        }
        if (first == last) {
            return "in " + (first == 1 ? "the first second" : "second " + first) + " of " + phase.words();
        }
        return "in seconds " + first + " to " + last + " of " + phase.words();
    }

    private Phase phaseAt(long ms) {
        Phase at = phases.get(0);
        for (Phase p : phases) {
            if (p.startMs() <= ms) {
                at = p;
            }
        }
        return at;
    }
}
