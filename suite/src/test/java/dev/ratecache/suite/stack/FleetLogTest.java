package dev.ratecache.suite.stack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import org.junit.jupiter.api.Test;

class FleetLogTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static JsonNode line(String uri, double msec, String quota) throws Exception {
        return JSON.readTree("{\"uri\":\"" + uri + "\",\"msec\":" + msec + ",\"quota\":\"" + quota + "\"}");
    }

    @Test
    void answersInOneMillisecondLoggedOutOfOrderComeBackInTheOrderTheClientSentThem() throws Exception {
        // As a buffered log of two workers can hold them: the later request first, in the same millisecond.
        List<JsonNode> logged = List.of(line("/hare?t=9", 1.005, "REJECTED"), line("/hare?t=8", 1.005, "PASSED"),
                line("/hare?t=10", 1.004, "REJECTED"), line("/hare?t=7&x=1", 1.001, "PASSED"));

        assertThat(FleetLog.inSendOrder(logged)).extracting(l -> l.get("uri").asText())
                .containsExactly("/hare?t=7&x=1", "/hare?t=8", "/hare?t=9", "/hare?t=10");
    }

    @Test
    void aLineWithoutTheSequenceIsAnErrorNotAGuess() throws Exception {
        assertThatThrownBy(() -> FleetLog.inSendOrder(List.of(line("/hare?i=1", 1.0, "PASSED"), line("/hare?t=2", 1.0, "PASSED"))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("/hare?i=1");
    }
}
