package dev.ratecache.suite.spec;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.suite.stack.StackPorts;
import dev.ratecache.suite.switches.AddressCeiling;
import dev.ratecache.suite.switches.LimitKey;
import dev.ratecache.suite.switches.LimitMode;
import dev.ratecache.suite.switches.MissingKey;
import dev.ratecache.suite.switches.StackSwitches;
import dev.ratecache.suite.switches.StaleMode;
import dev.ratecache.testkit.TestDirs;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The spec says in no product's words what today's flags ask of the stack. */
class StackSpecTest {
    private static final StackPorts PORTS = new StackPorts().front(10_080).origin(10_081, 10_082);

    @Test
    void defaultsAreTheReferenceSetup() {
        StackSpec spec = new StackSwitches().spec(PORTS);

        assertThat(spec.front()).contains(new StackSpec.Limit(100, 200, StackSpec.Mode.QUEUE, 0));
        assertThat(spec.back()).contains(new StackSpec.Limit(10, 50, StackSpec.Mode.QUEUE, 0));
        assertThat(spec.key()).isEqualTo(StackSpec.Key.ADDR);
        assertThat(spec.missing()).isEqualTo(StackSpec.Missing.ADDR);
        assertThat(spec.ceiling()).isEmpty();
        assertThat(spec.allow()).isEmpty();
        assertThat(spec.rejectStatus()).isEqualTo(429);
        assertThat(spec.retryAfter()).isEqualTo(1);
        assertThat(spec.cache().on()).isTrue();
        assertThat(spec.cache().bytes()).isEqualTo(100L << 20);
        assertThat(spec.cache().stale()).isEqualTo(StackSpec.Stale.RFC);
        assertThat(spec.cache().freshness()).isEmpty();
        assertThat(spec.tiers()).isEmpty();
        assertThat(spec.tls()).isEmpty();
        assertThat(spec.limitConn()).isZero();
        assertThat(spec.purgeAllow()).containsExactly("127.0.0.1");
        assertThat(spec.origins()).containsExactly(URI.create("http://127.0.0.1:10081"));
        assertThat(List.of(spec.ports().listen(), spec.ports().front(), spec.ports().back()))
                .containsExactly("127.0.0.1", 10_080, 9080);
        assertThat(spec.edges()).isEqualTo(1);
        assertThat(spec.queues()).isTrue();
    }

    @Test
    void everySwitchItKnowsIsCarriedOver() {
        StackSpec spec = new StackSwitches().frontLimit(false).backRate(3).backBurst(4)
                .backMode(LimitMode.parse("delay=2")).rejectStatus(503).retryAfter(9).cacheSize("512k")
                .stale(StaleMode.PROTECTIVE).purgeAllow(List.of("10.0.0.0/8", "::1")).origins(List.of(URI.create("http://10.0.0.2:8000"))).edges(2)
                .readTimeout(5).spec(PORTS);

        assertThat(spec.front()).isEmpty();
        assertThat(spec.back()).contains(new StackSpec.Limit(3, 4, StackSpec.Mode.DELAY, 2));
        assertThat(spec.rejectStatus()).isEqualTo(503);
        assertThat(spec.retryAfter()).isEqualTo(9);
        assertThat(spec.cache().bytes()).isEqualTo(512L << 10);
        assertThat(spec.cache().stale()).isEqualTo(StackSpec.Stale.PROTECTIVE);
        assertThat(spec.purgeAllow()).containsExactly("10.0.0.0/8", "::1");
        assertThat(spec.origins()).containsExactly(URI.create("http://10.0.0.2:8000"));
        assertThat(spec.edges()).isEqualTo(2);
        assertThat(spec.readTimeout()).isEqualTo(5);
    }

    @Test
    void nodelayLimitsDoNotQueue() {
        StackSpec spec = new StackSwitches().frontMode(LimitMode.NODELAY).backLimit(false).spec(PORTS);

        assertThat(spec.queues()).isFalse();
        assertThat(spec.back()).isEqualTo(Optional.empty());
    }

    @Test
    void aKeyItsMissingActionAndTheAllowListAreCarriedOver() {
        StackSpec spec = new StackSwitches().limitKey(LimitKey.parse("cookie:api_key"))
                .missingKey(MissingKey.REJECT).allow(List.of("10.0.0.0/8", "127.0.9.0/24")).spec(PORTS);

        assertThat(spec.key()).isEqualTo(new StackSpec.Key(StackSpec.Source.COOKIE, "api_key"));
        assertThat(spec.missing()).isEqualTo(StackSpec.Missing.REJECT);
        assertThat(spec.allow()).containsExactly("10.0.0.0/8", "127.0.9.0/24");
    }

    @Test
    void theAddressCeilingIsResolvedAsNginxsEdgeResolvesAuto() {
        StackSwitches keyed = new StackSwitches().frontRate(7).frontBurst(9).limitKey(LimitKey.parse("header:X-Api-Key"));

        assertThat(keyed.spec(PORTS).ceiling())
                .contains(new StackSpec.Limit(70, 90, StackSpec.Mode.NODELAY, 0));
        assertThat(keyed.copy().addressCeiling(AddressCeiling.parse("5")).spec(PORTS).ceiling())
                .contains(new StackSpec.Limit(5, 10, StackSpec.Mode.NODELAY, 0));
        assertThat(keyed.copy().addressCeiling(AddressCeiling.OFF).spec(PORTS).ceiling()).isEmpty();
    }

    @Test
    void tiersTlsTheFleetAndTheConnectionsAreCarriedOver() throws Exception {
        Path tiers = TestDirs.fresh(getClass(), "tiers").resolve("tiers.txt");
        Files.writeString(tiers, "pro 40 80 delay=10 pro-1,pro-2\n");
        TlsFiles own = new TlsFiles(Path.of("cert.pem"), Path.of("key.pem"), Path.of("cert.pem"));
        StackSpec spec = new StackSwitches().limitKey(LimitKey.parse("header:X-Api-Key")).tiers(tiers)
                .tls(true).tlsFiles(own.certificate(), own.key()).http2(false).hsts(true).httpPort(8443)
                .edges(3).edgeBalance(EdgeBalance.URI_HASH).fleetLimit(FleetLimit.SPLIT)
                .keepalive(7).readTimeout(20).clientTimeout(30).workers("2").spec(PORTS);

        assertThat(spec.tiers()).containsExactly(new StackSpec.KeyTier("pro",
                new StackSpec.Limit(40, 80, StackSpec.Mode.DELAY, 10), List.of("pro-1", "pro-2")));
        assertThat(spec.tls()).contains(new StackSpec.Tls(Optional.of(own), false, true, 8443));
        assertThat(spec.fleet()).isEqualTo(new StackSpec.Fleet(3, EdgeBalance.URI_HASH, FleetLimit.SPLIT,
                Optional.empty(), 50));
        assertThat(spec.connections()).isEqualTo(new StackSpec.Connections(7, 20, 30));
        assertThat(spec.tuning().workers()).isEqualTo("2");
        // auto is resolved: the spec says what the tiers will run.
        assertThat(spec.tuning().ageSource()).isIn(AgeSource.NATIVE, AgeSource.NJS);
        assertThat(spec.said().flags()).containsSubsequence("--edges", "3");
        assertThat(spec.said().words()).contains("3 edges");
    }

    @Test
    void theAddressCeilingAutoIsResolvedAgainstTheTiers() throws Exception {
        Path tiers = TestDirs.fresh(getClass(), "ceiling").resolve("tiers.txt");
        Files.writeString(tiers, "pro 40 80 nodelay pro-1\n");
        StackSpec spec = new StackSwitches().frontRate(7).frontBurst(9).limitKey(LimitKey.parse("header:X-Api-Key"))
                .tiers(tiers).spec(PORTS);

        assertThat(spec.ceiling()).contains(new StackSpec.Limit(400, 800, StackSpec.Mode.NODELAY, 0));
    }

    @Test
    void flagsOnlyNginxRendersAreNamedTogetherInOneLine() {
        StackSpec spec = new StackSwitches().tls(true).limitConn(5).freshness("/hare", 3).spec(PORTS);

        assertThat(spec.limitConn()).isEqualTo(5);
        assertThat(spec.cache().freshness()).containsExactly(java.util.Map.entry("/hare", 3));
        assertThat(spec.nginxOnlyFlags()).containsExactly("--tls", "--limit-conn", "--freshness");
        assertThat(spec.notRenderedBy("HAProxy", java.util.Set.of())).contains("--tls, --limit-conn, --freshness are not in HAProxy's"
                + " adapter yet: drop them, or use --edge nginx");
        assertThat(spec.notRenderedBy("Varnish", java.util.Set.of("--tls", "--limit-conn")))
                .contains("--freshness is not in Varnish's adapter yet: drop it, or use --edge nginx");
        assertThat(new StackSwitches().spec(PORTS).notRenderedBy("HAProxy", java.util.Set.of())).isEmpty();
    }
}
