package dev.ratecache.suite.advise;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Collectors;

/**
 * A seeded access log of whole UTC days in the suite's JSON form, with API keys in tiers, for the
 * quota advice's tests: small (tens of thousands of lines over a week), and the same for the same
 * seed.
 *
 * <p>Two tiers: {@code free}, {@value #FREE_KEYS} keys around {@value #FREE_PER_DAY} requests a day,
 * and {@code pro}, {@value #PRO_KEYS} keys around {@value #PRO_PER_DAY}. Each normal key has its
 * own level (half to one and a half times its tier's), is away on about one day in seven, sends
 * less at weekends, and its daily count is Poisson about that; its requests come over the day,
 * more by day than by night. One heavy key per tier sends far more ({@value #HEAVY_FACTOR} times its
 * tier's level, every day): the outliers. Requests without a key come from a few addresses, and one
 * of them is sure to fall in the first hour of the first day and the last hour of the last, so
 * every day is whole.
 */
public final class MultiDayLog {
    /** A Monday. */
    public static final LocalDate FIRST_DAY = LocalDate.of(2026, 11, 16);
    public static final String KEY_FIELD = "api_key";
    static final int FREE_KEYS = 50;
    static final int FREE_PER_DAY = 15;
    static final int PRO_KEYS = 20;
    static final int PRO_PER_DAY = 60;
    static final int HEAVY_FACTOR = 25;
    static final int KEYLESS_PER_DAY = 60;
    private static final long DAY_MS = 86_400_000L;
    /** Relative traffic per UTC hour: quiet at night. */
    private static final int[] HOURLY = {1, 1, 1, 1, 1, 2, 3, 4, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 4, 4, 3, 2, 2, 1};
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSXXX");

    /** A key of the log: its tier, its level a day, and whether it is one of the heavy ones. */
    public record Key(String name, String tier, double perDay, boolean heavy, String client) {}

    /** One request. */
    public record Request(long epochMs, String key, String client, String uri) {
        public LocalDate day() {
            return LocalDate.ofEpochDay(Math.floorDiv(epochMs, DAY_MS));
        }
    }

    private final List<Key> keys;
    private final List<Request> requests;

    private MultiDayLog(List<Key> keys, List<Request> requests) {
        this.keys = List.copyOf(keys);
        this.requests = List.copyOf(requests);
    }

    /** {@code days} whole UTC days from {@link #FIRST_DAY}. */
    public static MultiDayLog generate(long seed, int days) {
        Random random = new Random(seed);
        List<Key> keys = new ArrayList<>();
        for (int k = 1; k <= FREE_KEYS; k++) {
            keys.add(new Key(String.format("free-%02d", k), "free", FREE_PER_DAY * (0.5 + random.nextDouble()), false,
                    "198.51.100." + k));
        }
        keys.add(new Key("free-heavy", "free", FREE_PER_DAY * HEAVY_FACTOR, true, "198.51.100.200"));
        for (int k = 1; k <= PRO_KEYS; k++) {
            keys.add(new Key(String.format("pro-%02d", k), "pro", PRO_PER_DAY * (0.5 + random.nextDouble()), false,
                    "203.0.113." + k));
        }
        keys.add(new Key("pro-heavy", "pro", PRO_PER_DAY * HEAVY_FACTOR, true, "203.0.113.200"));
        long start = FIRST_DAY.toEpochDay() * DAY_MS;
        List<Request> requests = new ArrayList<>();
        for (int d = 0; d < days; d++) {
            long dayStart = start + d * DAY_MS;
            boolean weekend = FIRST_DAY.plusDays(d).getDayOfWeek().getValue() >= 6;
            for (Key key : keys) {
                if (!key.heavy() && random.nextInt(7) == 0) {
                    continue;
                }
                long count = poisson(random, key.perDay() * (weekend && !key.heavy() ? 0.6 : 1));
                for (long i = 0; i < count; i++) {
                    requests.add(new Request(dayStart + timeOfDay(random), key.name(), key.client(), uri(random)));
                }
            }
            for (int i = 0; i < KEYLESS_PER_DAY; i++) {
                requests.add(new Request(dayStart + timeOfDay(random), "", "192.0.2." + (1 + random.nextInt(5)),
                        uri(random)));
            }
        }
        requests.add(new Request(start + 500, "", "192.0.2.1", "/api/items"));
        requests.add(new Request(start + days * DAY_MS - 500, "", "192.0.2.1", "/api/items"));
        requests.sort(Comparator.comparingLong(Request::epochMs));
        return new MultiDayLog(keys, requests);
    }

    private static String uri(Random random) {
        return random.nextInt(3) == 0 ? "/api/items" : "/api/items?page=" + (1 + random.nextInt(10));
    }

    /** Milliseconds into the day, by {@link #HOURLY}. */
    private static long timeOfDay(Random random) {
        int total = 0;
        for (int w : HOURLY) {
            total += w;
        }
        int pick = random.nextInt(total);
        int hour = 0;
        while (pick >= HOURLY[hour]) {
            pick -= HOURLY[hour];
            hour++;
        }
        return hour * 3_600_000L + random.nextInt(3_600_000);
    }

    /** Knuth's for small means; a rounded normal beyond, where his underflows. */
    private static long poisson(Random random, double mean) {
        if (mean > 30) {
            return Math.max(0, Math.round(mean + Math.sqrt(mean) * random.nextGaussian()));
        }
        double limit = Math.exp(-mean);
        double p = 1;
        long k = 0;
        do {
            k++;
            p *= random.nextDouble();
        } while (p > limit);
        return k - 1;
    }

    public List<Key> keys() {
        return keys;
    }

    public List<Request> requests() {
        return requests;
    }

    /** Per key, its count on each day it sent requests. */
    public Map<String, Map<LocalDate, Long>> daily() {
        Map<String, Map<LocalDate, Long>> out = new LinkedHashMap<>();
        for (Request r : requests) {
            if (!r.key().isEmpty()) {
                out.computeIfAbsent(r.key(), k -> new LinkedHashMap<>()).merge(r.day(), 1L, Long::sum);
            }
        }
        return out;
    }

    /** The log in the suite's JSON form, the key in {@link #KEY_FIELD}. */
    public List<String> jsonLines() {
        List<String> lines = new ArrayList<>(requests.size());
        for (Request r : requests) {
            lines.add("{\"time\":\"" + TIME.format(Instant.ofEpochMilli(r.epochMs()).atOffset(ZoneOffset.UTC))
                    + "\",\"client\":\"" + r.client() + "\",\"method\":\"GET\",\"uri\":\"" + r.uri()
                    + "\",\"status\":200,\"bytes\":512" + (r.key().isEmpty() ? "" : ",\"" + KEY_FIELD + "\":\"" + r.key()
                    + "\"") + "}");
        }
        return lines;
    }

    /** A tiers file naming every key's tier (the rates are placeholders advise works out anew). */
    public List<String> tiersFile() {
        Map<String, List<String>> byTier = keys.stream().collect(Collectors.groupingBy(Key::tier, LinkedHashMap::new,
                Collectors.mapping(Key::name, Collectors.toList())));
        return byTier.entrySet().stream().map(e -> e.getKey() + " 10 20 nodelay " + String.join(",", e.getValue()))
                .toList();
    }

    /** Writes the log as {@code name} and its tiers file as {@code tiers-in.txt} into {@code dir}; the log's path. */
    public Path write(Path dir, String name) throws IOException {
        Files.createDirectories(dir);
        Files.write(dir.resolve("tiers-in.txt"), tiersFile());
        return Files.write(dir.resolve(name), jsonLines());
    }
}
