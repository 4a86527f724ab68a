package dev.ratecache.suite.predict;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.jtl.Sample;
import dev.ratecache.suite.edge.EdgeEvent;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** An open plan's requests as the model takes them: when they reached the front, and how long its fetches took. */
class OpenArrivalsTest {
    private static final long T0 = 1_795_995_372_907L;

    private static Sample sample(long atMs) {
        return new Sample(T0 + atMs, 5, "/hare", "200", "", "Arrivals 1-1", true, 90, 1, "http://127.0.0.1/hare", "",
                "", 0, "", 0);
    }

    private static EdgeEvent event(long atMs, EdgeEvent.Cache cache, String upstreamStatus, long upstreamMs) {
        return new EdgeEvent(T0 + atMs, T0 + atMs + upstreamMs, "127.0.0.1", "GET", "/hare", 200, 90,
                EdgeEvent.Limit.PASSED, cache, upstreamStatus, upstreamMs, "");
    }

    @Test
    void theRequestsStartWhenTheFrontLoggedThemWhenItLoggedEveryOne() {
        // JMeter started all three at once; opening their connections spread them over 300 ms.
        List<Sample> samples = List.of(sample(0), sample(1), sample(2));
        List<EdgeEvent> front = List.of(event(120, EdgeEvent.Cache.MISS, "200", 100),
                event(250, EdgeEvent.Cache.HIT, "", 0), event(420, EdgeEvent.Cache.HIT, "", 0));

        assertThat(Predictions.starts(samples, front, T0)).containsExactly(120L, 250L, 420L);
    }

    @Test
    void theRequestsStartAsTheJtlSaysWhenTheFrontDidNotLogThemAll() {
        List<Sample> samples = List.of(sample(0), sample(1), sample(2));

        assertThat(Predictions.starts(samples, List.of(event(120, EdgeEvent.Cache.MISS, "200", 100)), T0))
                .containsExactly(0L, 1L, 2L);
        assertThat(Predictions.starts(samples, List.of(), T0)).containsExactly(0L, 1L, 2L);
    }

    @Test
    void theOriginsSlowEndIsTheSlowerOfTheBacksTimesAndTheFrontsWaitForItsFetches(@TempDir Path run)
            throws IOException {
        Path events = Files.createDirectories(run.resolve("events"));
        StringBuilder back = new StringBuilder();
        for (int i = 1; i <= 10; i++) {
            // Envoy revalidates an expired entry: the origin's 304 took its time as its 200 did.
            back.append(line(i, 100 + i, i % 2 == 0 ? "304" : "200"));
        }
        back.append(line(11, 900, "429"));
        Files.writeString(events.resolve("back.jsonl"), back);
        List<EdgeEvent> front = new java.util.ArrayList<>();
        for (int i = 1; i <= 10; i++) {
            front.add(event(i, EdgeEvent.Cache.MISS, "200", 200 + i));
        }
        // A hit took nothing, and a refused fetch is no answer: neither is a wait for the cache.
        front.add(event(20, EdgeEvent.Cache.HIT, "", 0));
        front.add(event(21, EdgeEvent.Cache.MISS, "429", 900));

        Map<String, Predictor.OriginTimes> times = Predictions.originMs(run, front);

        assertThat(times).containsEntry("/hare", new Predictor.OriginTimes(101, 105, 209));
        assertThat(Predictions.originMs(run, List.of())).containsEntry("/hare", new Predictor.OriginTimes(101, 105, 109));
    }

    private static String line(long atMs, long upstreamMs, String upstreamStatus) {
        return "{\"arrivalMs\":" + (T0 + atMs) + ",\"endMs\":" + (T0 + atMs + upstreamMs) + ",\"key\":\"127.0.0.1\","
                + "\"method\":\"GET\",\"uri\":\"/hare\",\"status\":200,\"bytes\":90,\"limit\":\"PASSED\",\"cache\":\"NONE\","
                + "\"upstreamStatus\":\"" + upstreamStatus + "\",\"upstreamMs\":" + upstreamMs + ",\"fleet\":\"\"}\n";
    }
}
