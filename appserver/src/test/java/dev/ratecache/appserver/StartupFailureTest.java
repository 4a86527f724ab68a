package dev.ratecache.appserver;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A bad configuration stops the origin with one line on stderr naming the property and the
 * accepted form. Each test starts the application in this JVM (FailedStart); that the process then
 * exits non-zero, and that other start failures are one line too, AppServerJarIT shows on the jar.
 */
class StartupFailureTest {

    private static final String DURATION = "(accepted: a duration such as 100ms, 2s)";

    static List<String> stderrOfFailedStart(String... args) {
        return FailedStart.stderrOf(args);
    }

    @ParameterizedTest(name = "{0} is refused: {1}")
    @CsvSource(delimiter = '|', textBlock = """
            negative delay        | --origin.endpoints.hare.delay=-5ms      | origin.endpoints.hare.delay=-5ms: must not be negative (accepted: a duration such as 100ms, 2s)
            unknown duration unit | --origin.endpoints.hare.delay=5parsecs  | origin.endpoints.hare.delay=5parsecs: not a valid duration (accepted: a duration such as 100ms, 2s)
            invalid endpoint name | --origin.endpoints.My_Endpoint.delay=1s | origin.endpoints.My_Endpoint: not a valid endpoint name (accepted: a lower-case path segment matching [a-z][a-z0-9-]*)
            unknown app cache     | --origin.app-cache=memcached            | origin.app-cache=memcached: not a valid value (accepted: redis or off)
            zero app cache TTL    | --origin.app-cache-ttl=0s               | origin.app-cache-ttl=0s: must be positive (accepted: a duration such as 30s, 5m, more than 0)
            negative item count   | --origin.items.count=-1                 | origin.items.count=-1: must not be negative (accepted: a whole number of items such as 10000, 0 or more)
            negative query cost   | --origin.items.query-cost=-5ms          | origin.items.query-cost=-5ms: must not be negative (accepted: a duration such as 5ms, 0ms)
            empty pool            | --origin.database.pool-size=0           | origin.database.pool-size=0: must be at least 1 (accepted: a whole number of connections from 1 to 1000, such as 10)
            pool not a number     | --origin.database.pool-size=ten         | origin.database.pool-size=ten: not a valid value (accepted: a whole number of connections from 1 to 1000, such as 10)
            acquire timeout Hikari would replace | --origin.database.acquire-timeout=100ms | origin.database.acquire-timeout=100ms: must be at least 250ms (accepted: a duration from 250ms to 10m, such as 10s)
            negative s-maxage     | --origin.places.s-maxage=-1s            | origin.places.s-maxage=-1s: must not be negative (accepted: a duration such as 3s, 10m)
            """)
    void badValueIsRefusedInOneLineNamingItAndTheAcceptedForm(String what, String arg, String line) {
        assertThat(stderrOfFailedStart(arg)).containsExactly("origin: invalid configuration: " + line);
    }

    @ParameterizedTest(name = "{0} is refused: {1}")
    @CsvSource(delimiter = '|', textBlock = """
            negative max-age                     | --origin.endpoints.snail.max-age=-1s | origin.endpoints.snail.max-age=-1s: must not be negative | (accepted: a duration
            negative stale-if-error              | --origin.stale-if-error=-1s          | origin.stale-if-error=-1s: must not be negative          | (accepted: a duration such as 60s, 10m; 0s sends none)
            unknown property under origin        | --origin.endpoints.hare.delai=1s     | origin.endpoints.hare.delai=1s: unknown property         | origin.endpoints.<name>.delay
            endpoints given as one value         | --origin.endpoints=abc               | origin.endpoints=abc: unknown property                   | origin.endpoints.<name>.delay
            """)
    void badValueIsRefusedInOneLineShowingWhatIsAccepted(String what, String arg, String start, String accepted) {
        assertThat(stderrOfFailedStart(arg)).singleElement().asString()
                .startsWith("origin: invalid configuration: " + start)
                .contains(accepted);
    }

    @Test
    void badValueFromTheEnvironmentIsNamedAsItsProperty() {
        assertThat(FailedStart.of(Map.of("ORIGIN_ENDPOINTS_TORTOISE_DELAY", "-2s")).stderr()).containsExactly(
                "origin: invalid configuration: origin.endpoints.tortoise.delay=-2s: must not be negative " + DURATION);
    }
}
