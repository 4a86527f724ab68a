package dev.ratecache.accesslog;

import dev.ratecache.stats.Median;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * Turns a read log into what the replay sends: a selection of its requests, each at its logged
 * distance from the first (divided by the speed) and from the source address of its client.
 * Deterministic: the same log and selection give the same files, so two runs replay the same thing.
 */
public final class Replay {
    private Replay() {}

    /**
     * @param speed how many times faster than logged to replay; 1 replays in real time
     * @throws AccessLogException when the log or the selection holds fewer than two requests (a
     *     replay needs a time between requests), or more distinct clients than {@link SourceAddresses#CAPACITY}
     */
    public static ReplayInput prepare(ParsedLog log, Selection selection, double speed) throws AccessLogException {
        return prepare(log, selection, speed, SourceAddresses.CAPACITY);
    }

    /** With fewer addresses than the real range, so the refusal can be tested without millions of clients. */
    static ReplayInput prepare(ParsedLog log, Selection selection, double speed, long capacity)
            throws AccessLogException {
        if (!(speed > 0) || Double.isInfinite(speed)) {
            throw new IllegalArgumentException("speed " + speed + " is not a positive number");
        }
        String name = log.source().toString();
        if (log.requests().size() < 2) {
            throw new AccessLogException(name + ": only " + log.requests().size() + " request in the log;"
                    + " a replay needs at least 2");
        }
        List<LoggedRequest> kept = new ArrayList<>();
        Map<String, Long> skipped = new TreeMap<>();
        long outside = 0;
        long longLines = 0;
        Instant from = selection.from().map(t -> t.toInstant()).orElse(null);
        Instant to = selection.to().map(t -> t.toInstant()).orElse(null);
        for (LoggedRequest r : log.requests()) {
            Instant t = r.time().toInstant();
            if (from != null && t.isBefore(from) || to != null && !t.isBefore(to)) {
                outside++;
            } else if (!selection.methods().contains(r.method())) {
                skipped.merge(r.method(), 1L, Long::sum);
            } else if (r.method().length() + r.uri().getBytes(StandardCharsets.UTF_8).length + REQUEST_LINE_FRAME
                    > MAX_REQUEST_LINE_BYTES) {
                longLines++;
            } else if (selection.first().isPresent() && kept.size() >= selection.first().getAsInt()) {
                outside++;
            } else {
                kept.add(r);
            }
        }
        if (kept.size() < 2) {
            throw new AccessLogException(String.format(Locale.ROOT,
                    "%s: the selection keeps %d of %d requests (%s); a replay needs at least 2",
                    name, kept.size(), log.requests().size(), describe(selection)));
        }

        Map<String, Integer> index = new LinkedHashMap<>();
        Map<String, Long> perClient = new LinkedHashMap<>();
        for (LoggedRequest r : kept) {
            index.putIfAbsent(r.client(), index.size());
            perClient.merge(r.client(), 1L, Long::sum);
        }
        if (index.size() > capacity) {
            throw new AccessLogException(String.format(Locale.ROOT,
                    "%s: %d distinct clients, more than the %d source addresses from 127.16.0.1 to 127.255.255.254; "
                            + "select fewer requests with --from, --to or --first",
                    name, index.size(), capacity));
        }
        List<ClientAddress> clients = new ArrayList<>();
        Map<String, String> address = new LinkedHashMap<>();
        index.forEach((client, i) -> {
            address.put(client, SourceAddresses.of(i));
            clients.add(new ClientAddress(client, address.get(client), perClient.get(client)));
        });

        Instant start = kept.get(0).time().toInstant();
        List<ScheduledRequest> schedule = new ArrayList<>(kept.size());
        long keyed = 0;
        long unsent = 0;
        java.util.Set<String> distinct = new java.util.HashSet<>();
        for (LoggedRequest r : kept) {
            long nanos = Duration.between(start, r.time().toInstant()).toNanos();
            String key = r.key();
            if (r.hasKey()) {
                keyed++;
                if (sendable(key)) {
                    distinct.add(key);
                } else {
                    unsent++;
                    key = LoggedRequest.NO_KEY;
                }
            }
            schedule.add(new ScheduledRequest(Math.round(nanos / 1e6 / speed), address.get(r.client()), r.method(),
                    r.uri(), r.client(), key));
        }
        long keyedRequests = keyed;
        long unsentKeys = unsent;
        ReplaySummary.Keys keys = log.keyField()
                .map(f -> new ReplaySummary.Keys(f, keyedRequests, distinct.size(), unsentKeys)).orElse(null);

        Map<String, Long> skippedByCount = skipped.entrySet().stream()
                .sorted(Map.Entry.<String, Long>comparingByValue(Comparator.reverseOrder()))
                .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue, (a, b) -> a, LinkedHashMap::new));
        ReplaySummary summary = new ReplaySummary(name, log.format().spelling(), log.lines(), log.requests().size(),
                kept.size(), log.bad(), skippedByCount, outside, clients.size(), kept.get(0).time(),
                kept.get(kept.size() - 1).time(), speed, log.resolution(), keys, longLines);
        return new ReplayInput(schedule, clients, paths(kept), summary);
    }

    /**
     * The longest request line, with its CRLF, the suite's front takes: one of its
     * large_client_header_buffers (nginx/snippets/shared/request-limits.conf). nginx answers a
     * longer one 414 while it reads the request, before any limit or cache sees it, so a replay
     * leaves such requests out (and says how many) rather than measure the suite's buffer: the
     * user's nginx, which logged them, takes longer lines.
     */
    public static final int MAX_REQUEST_LINE_BYTES = 8192;

    /** What the sender puts around the target: the method's space, and " HTTP/1.1" with the CRLF. */
    private static final int REQUEST_LINE_FRAME = " HTTP/1.1\r\n".length() + 1;

    /** The longest key nginx's limit counts (snippets/shared/limit-key.conf); a longer one counts as missing. */
    public static final int MAX_KEY_BYTES = 256;

    /**
     * Whether {@code key} can go in a header as it is and be counted by nginx as a key: 1 to
     * {@value #MAX_KEY_BYTES} visible ASCII characters. nginx counts a longer key, or one with a
     * control character, as missing, and a header cannot carry a line break (nor, through JMeter,
     * what is not ASCII), so such a key is sent as no key at all: what nginx would make of it.
     */
    public static boolean sendable(String key) {
        if (key.isEmpty() || key.length() > MAX_KEY_BYTES) {
            return false;
        }
        for (int i = 0; i < key.length(); i++) {
            char c = key.charAt(i);
            if (c < 0x21 || c > 0x7e) {
                return false;
            }
        }
        return true;
    }

    /** Per path, in order of first request. */
    static List<PathProfile> paths(List<LoggedRequest> requests) {
        Map<String, List<LoggedRequest>> byPath = new LinkedHashMap<>();
        for (LoggedRequest r : requests) {
            byPath.computeIfAbsent(r.path(), p -> new ArrayList<>()).add(r);
        }
        List<PathProfile> paths = new ArrayList<>();
        byPath.forEach((path, rs) -> {
            // Upstream times when any were logged: cache hits have none, and their request time
            // (about 0) says nothing about how long the origin takes.
            double[] upstream = rs.stream().filter(r -> r.upstreamSeconds().isPresent())
                    .mapToDouble(r -> r.upstreamSeconds().getAsDouble() * 1000).toArray();
            double[] request = rs.stream().filter(r -> r.requestSeconds().isPresent())
                    .mapToDouble(r -> r.requestSeconds().getAsDouble() * 1000).toArray();
            double[] delays = upstream.length > 0 ? upstream : request;
            OptionalLong delay = delays.length == 0 ? OptionalLong.empty() : OptionalLong.of(Math.round(Median.of(delays)));
            double[] sizes = rs.stream().filter(r -> r.bytes().isPresent())
                    .mapToDouble(r -> r.bytes().getAsLong()).toArray();
            long bytes = sizes.length == 0 ? 0 : Math.round(Median.of(sizes));
            paths.add(new PathProfile(path, rs.size(), delay, bytes));
        });
        return paths;
    }

    private static String describe(Selection s) {
        List<String> parts = new ArrayList<>();
        s.from().ifPresent(t -> parts.add("from " + LogTimes.ISO.format(t)));
        s.to().ifPresent(t -> parts.add("to " + LogTimes.ISO.format(t)));
        s.first().ifPresent(n -> parts.add("first " + n));
        parts.add("methods " + String.join(",", new java.util.TreeSet<>(s.methods())));
        return String.join(", ", parts);
    }
}
