package dev.ratecache.suite.predict;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.jtl.Sample;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Reading each JMeter user's drawn path order from its samples. */
class DrawnOrdersTest {

    private static Sample sample(long at, String thread, String label) {
        return new Sample(at, 5, label, "200", "OK", thread, true, 100, 1, "http://127.0.0.1" + label, "", "", 0, "", 0);
    }

    @Test
    void eachThreadsLabelsInTheOrderItSentThemByItsNumber() {
        List<Sample> samples = List.of(
                sample(10, "Users 1-2", "/snail"), sample(11, "Users 1-1", "/hare"),
                sample(20, "Users 1-1", "/tortoise"), sample(25, "Users 1-2", "/hare"));

        assertThat(Predictions.drawnOrders(samples))
                .containsExactly(List.of("/hare", "/tortoise"), List.of("/snail", "/hare"));
    }

    @Test
    void aThreadNameWithoutItsNumberOrAMissingUserGivesNoOrders() {
        assertThat(Predictions.drawnOrders(List.of(sample(1, "main", "/hare")))).isNull();
        assertThat(Predictions.drawnOrders(List.of(sample(1, "Users 1-2", "/hare")))).isNull();
        assertThat(Predictions.drawnOrders(List.of())).isNull();
    }
}
