package dev.ratecache.suite.edge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ratecache.suite.nginx.AddressCeiling;
import dev.ratecache.suite.nginx.LimitKey;
import dev.ratecache.suite.nginx.LimitMode;
import dev.ratecache.suite.nginx.MissingKey;
import dev.ratecache.suite.nginx.NginxSwitches;
import dev.ratecache.suite.nginx.StaleMode;
import dev.ratecache.suite.stack.StackPorts;
import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The spec says in no product's words what today's flags ask of the stack. */
class StackSpecTest {
    private static final StackPorts PORTS = new StackPorts().front(10_080).origin(10_081, 10_082);

    @Test
    void defaultsAreTheReferenceSetup() {
        StackSpec spec = StackSpec.from(new NginxSwitches(), PORTS);

        assertThat(spec.front()).contains(new StackSpec.Limit(100, 200, StackSpec.Mode.QUEUE, 0));
        assertThat(spec.back()).contains(new StackSpec.Limit(10, 50, StackSpec.Mode.QUEUE, 0));
        assertThat(spec.key()).isEqualTo(StackSpec.Key.ADDR);
        assertThat(spec.missing()).isEqualTo(StackSpec.Missing.ADDR);
        assertThat(spec.ceiling()).isEmpty();
        assertThat(spec.allow()).isEmpty();
        assertThat(spec.rejectStatus()).isEqualTo(429);
        assertThat(spec.retryAfter()).isEqualTo(1);
        assertThat(spec.cache()).isEqualTo(new StackSpec.Cache(true, 100L << 20, StackSpec.Stale.RFC));
        assertThat(spec.purgeAllow()).containsExactly("127.0.0.1");
        assertThat(spec.origins()).containsExactly(URI.create("http://127.0.0.1:10081"));
        assertThat(spec.ports()).isEqualTo(new StackSpec.Listen("127.0.0.1", 10_080, 9080));
        assertThat(spec.edges()).isEqualTo(1);
        assertThat(spec.queues()).isTrue();
    }

    @Test
    void everySwitchItKnowsIsCarriedOver() {
        StackSpec spec = StackSpec.from(new NginxSwitches().frontLimit(false).backRate(3).backBurst(4)
                .backMode(LimitMode.parse("delay=2")).rejectStatus(503).retryAfter(9).cacheSize("512k")
                .stale(StaleMode.PROTECTIVE).purgeAllow(List.of("10.0.0.0/8", "::1")).origins(List.of(URI.create("http://10.0.0.2:8000"))).edges(2)
                .readTimeout(5), PORTS);

        assertThat(spec.front()).isEmpty();
        assertThat(spec.back()).contains(new StackSpec.Limit(3, 4, StackSpec.Mode.DELAY, 2));
        assertThat(spec.rejectStatus()).isEqualTo(503);
        assertThat(spec.retryAfter()).isEqualTo(9);
        assertThat(spec.cache()).isEqualTo(new StackSpec.Cache(true, 512L << 10, StackSpec.Stale.PROTECTIVE));
        assertThat(spec.purgeAllow()).containsExactly("10.0.0.0/8", "::1");
        assertThat(spec.origins()).containsExactly(URI.create("http://10.0.0.2:8000"));
        assertThat(spec.edges()).isEqualTo(2);
        assertThat(spec.readTimeout()).isEqualTo(5);
    }

    @Test
    void nodelayLimitsDoNotQueue() {
        StackSpec spec = StackSpec.from(new NginxSwitches().frontMode(LimitMode.NODELAY).backLimit(false), PORTS);

        assertThat(spec.queues()).isFalse();
        assertThat(spec.back()).isEqualTo(Optional.empty());
    }

    @Test
    void aKeyItsMissingActionAndTheAllowListAreCarriedOver() {
        StackSpec spec = StackSpec.from(new NginxSwitches().limitKey(LimitKey.parse("cookie:api_key"))
                .missingKey(MissingKey.REJECT).allow(List.of("10.0.0.0/8", "127.0.9.0/24")), PORTS);

        assertThat(spec.key()).isEqualTo(new StackSpec.Key(StackSpec.Source.COOKIE, "api_key"));
        assertThat(spec.missing()).isEqualTo(StackSpec.Missing.REJECT);
        assertThat(spec.allow()).containsExactly("10.0.0.0/8", "127.0.9.0/24");
    }

    @Test
    void theAddressCeilingIsResolvedAsNginxsEdgeResolvesAuto() {
        NginxSwitches keyed = new NginxSwitches().frontRate(7).frontBurst(9).limitKey(LimitKey.parse("header:X-Api-Key"));

        assertThat(StackSpec.from(keyed, PORTS).ceiling())
                .contains(new StackSpec.Limit(70, 90, StackSpec.Mode.NODELAY, 0));
        assertThat(StackSpec.from(keyed.copy().addressCeiling(AddressCeiling.parse("5")), PORTS).ceiling())
                .contains(new StackSpec.Limit(5, 10, StackSpec.Mode.NODELAY, 0));
        assertThat(StackSpec.from(keyed.copy().addressCeiling(AddressCeiling.OFF), PORTS).ceiling()).isEmpty();
    }

    @Test
    void switchesTheSpecDoesNotCarryYetAreRefusedTogetherInOneLineRatherThanDropped() {
        NginxSwitches switches = new NginxSwitches().tiers(Path.of("tiers.txt")).limitConn(5).freshness("/hare", 3);

        assertThatThrownBy(() -> StackSpec.from(switches, PORTS))
                .isInstanceOf(StackSpec.Unsupported.class)
                .hasMessage("--tiers, --limit-conn, --freshness are not in the edge stack spec yet: drop them, or use"
                        + " --edge nginx");
    }
}
