package dev.ratecache.appserver;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.ServerSocket;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A bad configuration stops the origin with one line on stderr naming the property and the
 * accepted form, and a non-zero exit code. Each test starts the application in its own JVM.
 */
class StartupFailureTest {

    private static final String DURATION = "(accepted: a duration such as 100ms, 2s)";

    static OriginProcess failedStart(Map<String, String> environment, String... args) {
        OriginProcess origin = OriginProcess.start(OriginProcess.fromClasspath(), environment, args);
        assertThat(origin.awaitExit()).as("exit code").isNotZero();
        assertThat(origin.stdout()).doesNotContain("APPLICATION FAILED TO START").doesNotContain("\tat ");
        return origin;
    }

    static List<String> stderrOfFailedStart(String... args) {
        return failedStart(Map.of(), args).stderrLines();
    }

    @Test
    void negativeDelayIsRefused() {
        assertThat(stderrOfFailedStart("--origin.endpoints.hare.delay=-5ms")).containsExactly(
                "origin: invalid configuration: origin.endpoints.hare.delay=-5ms: must not be negative " + DURATION);
    }

    @Test
    void negativeMaxAgeIsRefused() {
        assertThat(stderrOfFailedStart("--origin.endpoints.snail.max-age=-1s")).singleElement().asString()
                .startsWith("origin: invalid configuration: origin.endpoints.snail.max-age=-1s: must not be negative")
                .contains("(accepted: a duration");
    }

    @Test
    void unknownDurationUnitIsRefused() {
        assertThat(stderrOfFailedStart("--origin.endpoints.hare.delay=5parsecs")).containsExactly(
                "origin: invalid configuration: origin.endpoints.hare.delay=5parsecs: not a valid duration " + DURATION);
    }

    @Test
    void invalidEndpointNameIsRefused() {
        assertThat(stderrOfFailedStart("--origin.endpoints.My_Endpoint.delay=1s")).containsExactly(
                "origin: invalid configuration: origin.endpoints.My_Endpoint: not a valid endpoint name "
                        + "(accepted: a lower-case path segment matching [a-z][a-z0-9-]*)");
    }

    @Test
    void unknownPropertyUnderOriginIsRefused() {
        assertThat(stderrOfFailedStart("--origin.endpoints.hare.delai=1s")).singleElement().asString()
                .startsWith("origin: invalid configuration: origin.endpoints.hare.delai=1s: unknown property")
                .contains("origin.endpoints.<name>.delay");
    }

    @Test
    void endpointsGivenAsOneValueAreRefused() {
        assertThat(stderrOfFailedStart("--origin.endpoints=abc")).singleElement().asString()
                .startsWith("origin: invalid configuration: origin.endpoints=abc: unknown property")
                .contains("origin.endpoints.<name>.delay");
    }

    @Test
    void badValueFromTheEnvironmentIsNamedAsItsProperty() {
        assertThat(failedStart(Map.of("ORIGIN_ENDPOINTS_TORTOISE_DELAY", "-2s")).stderrLines()).containsExactly(
                "origin: invalid configuration: origin.endpoints.tortoise.delay=-2s: must not be negative " + DURATION);
    }

    @Test
    void otherStartFailuresAreAlsoOneLine() throws IOException {
        try (ServerSocket taken = new ServerSocket(0)) {
            OriginProcess origin = OriginProcess.start(OriginProcess.fromClasspath(), Map.of(),
                    "--server.port=" + taken.getLocalPort());
            assertThat(origin.awaitExit()).isNotZero();
            assertThat(origin.stderrLines()).singleElement().asString()
                    .startsWith("origin: failed to start: ")
                    .contains(String.valueOf(taken.getLocalPort()));
        }
    }
}
