package dev.ratecache.suite.predict;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.jtl.Sample;
import dev.ratecache.suite.edge.EdgeEvent;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A closed plan's users as its JTL and the front's events show them: when each started, and its pace. */
class UserPaceTest {
    private static final long T0 = 1_795_975_119_000L;
    private static final Map<String, String> CLOSED = Map.of("users", "2", "loops", "1");

    private static Sample sample(long atMs, long elapsedMs, String path, String code, String thread) {
        return new Sample(T0 + atMs, elapsedMs, path, code, "", thread, code.equals("200"), 90, 2,
                "http://127.0.0.1" + path, "", "", 0, "", 0);
    }

    private static EdgeEvent event(long atMs, long tookMs, String path, int status) {
        return new EdgeEvent(T0 + atMs, T0 + atMs + tookMs, "127.0.0.1", "GET", path, status, 90,
                status == 429 ? EdgeEvent.Limit.REJECTED : EdgeEvent.Limit.PASSED, EdgeEvent.Cache.HIT, "", 0, "");
    }

    @Test
    void aUsersPaceIsItsShareOfEachSampleBeyondTheFrontsTimePlusTheGapBeforeItsNext() {
        // User 1: /snail reached the front 1 ms after its start, waited 500 ms there and took 512 ms in all,
        // then 3 ms passed before /hare, which the front answered at once and the client saw after 9 ms.
        // User 2 started 40 ms later and took 30 ms to open its connection: it starts when the front had it.
        List<Sample> samples = List.of(
                sample(0, 512, "/snail", "200", "Users 1-1"),
                sample(40, 36, "/hare", "429", "Users 1-2"),
                sample(515, 9, "/hare", "200", "Users 1-1"),
                sample(80, 5, "/hare", "200", "Users 1-2"));
        List<EdgeEvent> front = List.of(event(1, 500, "/snail", 200), event(70, 0, "/hare", 429),
                event(516, 0, "/hare", 200), event(81, 1, "/hare", 200));

        Predictor.UserPace pace = Predictions.paces(samples, CLOSED, front);

        assertThat(pace.startsMs()).containsExactly(1L, 70L);
        assertThat(pace.paceMs().get(0)).containsExactly(12L - 1 + 3, 9L);
        assertThat(pace.paceMs().get(1)).containsExactly(36L - 30 + 4, 4L);
    }

    @Test
    void anOpenPlanOrACellWithoutTheFrontsEventsHasNoMeasuredPace() {
        List<Sample> samples = List.of(sample(0, 5, "/hare", "200", "Users 1-1"));

        assertThat(Predictions.paces(samples, Map.of("rate", "100"), List.of(event(1, 1, "/hare", 200)))).isNull();
        assertThat(Predictions.paces(samples, CLOSED, List.of())).isNull();
    }
}
