package dev.ratecache.suite.edge;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/**
 * Varnish's tiers for up's status line, from varnishstat's counters: its log is in shared memory,
 * read whole with varnishncsa only as the tiers stop, and it has no status page.
 * <ul>
 * <li>requests/s at a tier: MAIN.client_req, requests it read, as nginx's stub_status counts them;</li>
 * <li>rejected: MAIN.s_synth of both tiers, the answers their VCL made itself: the front's
 *     per-client rejections and the back's origin-limit ones, which reach the client through the
 *     front, as nginx's front logs them with the rejection status. A PURGE's answer is one too,
 *     where nginx logs a purge with its own status;</li>
 * <li>HIT: the front's MAIN.cache_hit less MAIN.cache_hit_grace, the hits on an object past its
 *     lifetime, which the front marks STALE (varnish/snippets/front/cache.vcl), as nginx does.</li>
 * </ul>
 */
final class VarnishCounters implements LiveCounters {
    private static final List<String> FRONT = List.of("MAIN.client_req", "MAIN.s_synth", "MAIN.cache_hit",
            "MAIN.cache_hit_grace");
    private static final List<String> BACK = List.of("MAIN.client_req", "MAIN.s_synth");

    private final Path dir;
    private Map<String, Long> front = Map.of();
    private Map<String, Long> back = Map.of();

    /** {@code dir}: where the tiers were started (the run folder's varnish/). */
    VarnishCounters(Path dir) {
        this.dir = dir;
    }

    @Override
    public Reading read() {
        Map<String, Long> frontNow = counters("front", FRONT);
        Map<String, Long> backNow = counters("back", BACK);
        Reading reading = reading(front, frontNow, back, backNow);
        front = frontNow;
        back = backNow;
        return reading;
    }

    @Override
    public String source() {
        return "varnishstat's counters; rejected counts every answer the VCL made itself, a PURGE's too";
    }

    /** The reading from each tier's counters before and now (empty where varnishstat could not read them). */
    static Reading reading(Map<String, Long> frontBefore, Map<String, Long> frontNow, Map<String, Long> backBefore,
            Map<String, Long> backNow) {
        AccessLogTail.Counts answered = new AccessLogTail.Counts(
                delta(frontBefore, frontNow, "MAIN.client_req"),
                delta(frontBefore, frontNow, "MAIN.s_synth") + delta(backBefore, backNow, "MAIN.s_synth"),
                delta(frontBefore, frontNow, "MAIN.cache_hit") - delta(frontBefore, frontNow, "MAIN.cache_hit_grace"));
        return new Reading(counter(frontNow), counter(backNow), answered);
    }

    private Map<String, Long> counters(String tier, List<String> names) {
        try {
            return VarnishEdge.counters(dir, tier, names);
        } catch (IOException e) {
            return Map.of(); // the line shows "-" for it
        }
    }

    private static OptionalLong counter(Map<String, Long> counters) {
        Long requests = counters.get("MAIN.client_req");
        return requests == null ? OptionalLong.empty() : OptionalLong.of(requests);
    }

    /** What {@code name} gained; 0 when either reading lacks it (the first, or a failed read). */
    private static long delta(Map<String, Long> before, Map<String, Long> after, String name) {
        Long b = before.get(name);
        Long a = after.get(name);
        return a == null || b == null ? 0 : Math.max(0, a - b);
    }
}
