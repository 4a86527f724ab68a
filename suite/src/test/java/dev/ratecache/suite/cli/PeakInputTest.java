package dev.ratecache.suite.cli;

import static dev.ratecache.suite.cli.RefusedRows.refused;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** ./run-tests.sh peak refuses bad input in one line each, before it binds a port or starts a tool. */
class PeakInputTest {
    private final CommandRun cli = new CommandRun();

    @Test
    void badInputGetsOneLineBeforeAnythingStarts() {
        assertThat(cli.run("peak", "--duration", "0", "--connections", "2", "--threads", "3")).isEqualTo(2);
        assertThat(cli.err())
                .contains("--duration must be a whole number from 1 to 3600 (got 0)")
                .contains("--threads (3) must not exceed --connections (2)");
        assertThat(cli.out()).doesNotContain("machine:");
    }

    /** Each case: what is wrong, the arguments of peak that say it, and what the one line must say. */
    static Stream<Arguments> refusedInput() {
        return Stream.of(
                refused("number past an int, naming peak's range", List.of("--threads", "99999999999"),
                        "run-tests.sh: --threads must be a whole number from 1 to 64 (got 99999999999)\n"),
                refused("number past an int of the tiers' switches", List.of("--front-rate", "99999999999"),
                        "run-tests.sh: --front-rate must be a whole number from 1 to 100000 (got 99999999999)\n"),
                refused("an edge the suite does not know", List.of("--edge", "squid"),
                        "'squid' is not an edge: use nginx, haproxy, varnish, envoy or traefik"),
                refused("--breakdown, which ladders nginx's front, with another edge", List.of("--edge", "haproxy",
                        "--breakdown"), "--breakdown measures nginx's front feature by feature: drop it with --edge"
                                + " haproxy, which measures its full edge against its bare form"),
                refused("--tls with another edge", List.of("--edge", "varnish", "--tls"),
                        "--tls: peak --edge varnish measures the HIT path in cleartext; drop --tls"),
                refused("--app-path with another edge", List.of("--edge", "haproxy", "--app-path", "/items/1"),
                        "--app-path compares nginx's edge cache with the app's Redis cache: drop it with --edge haproxy"),
                refused("--fleet with another edge", List.of("--edge", "varnish", "--fleet"),
                        "--fleet measures nginx's fleet limit in Redis: drop it with --edge varnish"),
                refused("--quota with another edge", List.of("--edge", "varnish", "--quota", "1000/d"),
                        "--quota measures nginx's quota in Redis: drop it with --edge varnish"),
                refused("a --quota that is no quota, naming the form", List.of("--quota", "1000/week"),
                        "--quota: '1000/week' is not a quota: use N/m, N/h, N/d or N/SECONDSs, e.g. 1000/d or 600/60s"),
                refused("--instructions with an edge that has no one-process forms to count", List.of("--edge",
                        "varnish", "--instructions"), "--instructions counts the suite's front on the HIT path alone:"
                                + " drop --edge varnish (Varnish has no one-process forms to count; nginx's front and"
                                + " --edge haproxy have)"),
                refused("--instructions with --tls", List.of("--instructions", "--tls"),
                        "--instructions counts the suite's front on the HIT path alone: drop --tls"),
                refused("--demands with --tls", List.of("--demands", "--tls"),
                        "--demands measures the suite's tiers class by class: drop --tls"),
                refused("--demands-file without --demands", List.of("--demands-file", "d.json"),
                        "--demands-file says where --demands writes: give --demands too"),
                refused("--quota with --breakdown", List.of("--breakdown", "--quota", "1000/d"),
                        "--breakdown measures the front tier's HIT path alone: drop --quota"),
                refused("--quota with --app-path", List.of("--app-path", "/items/1", "--quota", "1000/d"),
                        "--app-path compares the edge cache with the app's Redis cache, --quota the quota's Redis call:"
                                + " run them apart"),
                refused("--quota-keys of none", List.of("--quota-keys", "0"),
                        "--quota-keys must be a whole number from 1 to 10000000 (got 0)"),
                refused("--quota-keys past an int, naming its range", List.of("--quota-keys", "99999999999"),
                        "run-tests.sh: --quota-keys must be a whole number from 1 to 10000000 (got 99999999999)\n"),
                refused("--quota-keys with a window it would wait days for", List.of("--quota-keys", "1000", "--quota",
                        "1000/d"), "--quota-keys waits until the counters expire, up to two windows: give --quota a"
                                + " window of 60 s at most, e.g. --quota 1000/10s (got 1000/d)"),
                refused("--quota-keys with another of peak's measurements", List.of("--quota-keys", "1000", "--fleet"),
                        "--quota-keys measures the quota's keys in Redis alone, with no tiers: drop --fleet"),
                refused("--quota-keys with a Redis of the user's", List.of("--quota-keys", "1000", "--quota", "1/10s",
                        "--fleet-redis", "127.0.0.1:6379"), "--quota-keys fills the suite's own redis-server, whose"
                                + " memory it reads from empty: drop --fleet-redis"),
                refused("--workers, nginx's, with another edge", List.of("--edge", "haproxy", "--workers", "2"),
                        "--workers sets nginx's worker processes, and HAProxy runs its own default threads in both forms:"
                                + " drop --workers with --edge haproxy"),
                refused("what the product cannot do", List.of("--edge", "haproxy", "--stale", "protective"),
                        "--edge haproxy: HAProxy's cache cannot serve stale content (haproxy#214): drop --stale"
                                + " protective, or use --edge nginx"),
                refused("what Varnish cannot do", List.of("--edge", "varnish", "--stale", "protective"),
                        "--edge varnish: The Varnish edge serves stale content only in the grace the origin's"
                                + " stale-while-revalidate and stale-if-error allow: drop --stale protective, or use --edge nginx"));
    }

    @ParameterizedTest(name = "{0} is refused: {1}")
    @MethodSource("refusedInput")
    void badValueIsRefusedSayingWhy(String what, List<String> args, List<String> said) {
        List<String> all = new java.util.ArrayList<>(List.of("peak"));
        all.addAll(args);
        assertThat(cli.run(all.toArray(String[]::new))).isEqualTo(2);
        assertThat(cli.err()).contains(said);
        assertThat(cli.out()).doesNotContain("machine:");
    }

    @Test
    void anOriginOfYourOwnNeedsItsUrl() {
        assertThat(cli.run("peak", "--origin", "http://127.0.0.1:9")).isEqualTo(2);
        assertThat(cli.err()).contains("--url: with --origin, give the path of a cacheable URL");
    }

    @Test
    void appPathThatIsNotAnItemIsRefusedBeforeAnythingStarts() {
        assertThat(cli.run("peak", "--app-path", "/hare")).isEqualTo(2);
        assertThat(cli.err()).contains("--app-path must be an item of the suite's origin, /items/ID (got '/hare')");
        assertThat(cli.out()).doesNotContain("starting");
    }

    @Test
    void tlsRefusesWhatMakesNoSenseWithItOneLineEach() {
        assertThat(cli.run("peak", "--tls", "--breakdown", "--no-http2", "--http-port", "8081", "--streams", "0"))
                .isEqualTo(2);
        assertThat(cli.err())
                .contains("--tls measures the HIT path over TLS, --breakdown the production front's features one by one:"
                        + " run them apart")
                .contains("--no-http2: peak --tls measures HTTP/2 too; drop --no-http2")
                .contains("--http-port: peak --tls measures the TLS port alone; drop --http-port")
                .contains("--streams must be a whole number from 1 to 1000 (got 0)");
        assertThat(cli.out()).doesNotContain("machine:");
        assertThat(cli.run("peak", "--tls", "--fleet")).isEqualTo(2);
        assertThat(cli.err()).contains("--tls measures the HIT path over TLS, --fleet the fleet's Redis: run them apart");
        assertThat(cli.run("peak", "--tls", "--quota", "1000/d")).isEqualTo(2);
        assertThat(cli.err()).contains("--tls measures the HIT path over TLS, --quota the quota's Redis call: run them apart");
    }
}
