package dev.ratecache.suite.kinds.attacks;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class AttackPromiseTest {
    @Test
    void anAttackCellIsSetBesideItsOwnEdgesBaseline() {
        assertThat(AttackPromise.baselineOf("attacks/varnish.slow-read")).isEqualTo("attacks/varnish.baseline");
        assertThat(AttackPromise.text("attacks/nginx.slow-body")).isEqualTo("attacks/nginx.slow-body: the normal"
                + " clients kept at least 90 % of their throughput without the attack (attacks/nginx.baseline)");
    }
}
