package dev.ratecache.suite.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.suite.up.UpState;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** gui points at a running up's stack by default; a port given on the command line still wins. */
class GuiPointsAtUpTest {
    private static final UpState UP = new UpState(4242, 1, "/tmp/up-x", List.of(), Map.of(),
            Map.of("front", 18001, "origin", 18003));

    @Test
    void takesTheFrontPortOfTheRunningUp() {
        GuiCommand.Launch launch = GuiCommand.parse("stress").prepare(Optional.of(UP));
        assertThat(launch.properties()).containsEntry("port", "18001");
        assertThat(launch.notes()).anyMatch(n -> n.startsWith("pointing at the front end of the running up (PID 4242)"));
    }

    @Test
    void opensThePlanOverHttpsWhenTheUpRunsWithTls() {
        UpState tls = new UpState(4242, 1, "/tmp/up-x", List.of(), Map.of("front", "https://127.0.0.1:18001"),
                Map.of("front", 18001, "origin", 18003));

        GuiCommand.Launch launch = GuiCommand.parse("stress").prepare(Optional.of(tls));

        assertThat(launch.properties()).containsEntry("protocol", "https").containsEntry("port", "18001");
        assertThat(launch.notes()).anyMatch(n -> n.contains("https://127.0.0.1:18001"));
        assertThat(GuiCommand.parse("stress").prepare(Optional.of(UP)).properties()).doesNotContainKey("protocol");
        assertThat(GuiCommand.parse("stress", "--scenario", "stress/direct").prepare(Optional.of(tls)).properties())
                .doesNotContainKey("protocol");
    }

    @Test
    void aDirectScenarioTakesItsOriginPort() {
        GuiCommand.Launch launch = GuiCommand.parse("stress", "--scenario", "stress/direct").prepare(Optional.of(UP));
        assertThat(launch.properties()).containsEntry("port", "18003");
    }

    @Test
    void aPortOnTheCommandLineWins() {
        GuiCommand.Launch launch = GuiCommand.parse("stress", "--front-port", "18500").prepare(Optional.of(UP));
        assertThat(launch.properties()).containsEntry("port", "18500");
        assertThat(launch.notes()).noneMatch(n -> n.contains("running up"));
    }
}
