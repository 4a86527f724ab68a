package dev.ratecache.suite.kinds.attacks;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.suite.edge.SlowClient;
import java.util.List;
import org.junit.jupiter.api.Test;

class AttackFiguresTest {
    private static final Attack ATTACK = new Attack(SlowClient.HEADERS, 3);

    private static SlowClients.Connection c(SlowClients.How how, int status, long opened, long ended) {
        return new SlowClients.Connection(how, status, opened, ended);
    }

    @Test
    void theMostHeldAtOnceCountsAConnectionEndingAsAnotherOpensOnlyOnce() {
        // Slot 1's first ends at 10 s as its second opens: never more than two at once.
        AttackFigures f = AttackFigures.of(ATTACK, List.of(
                c(SlowClients.How.CLOSED, 0, 0_000 + 1, 10_000), c(SlowClients.How.HELD, 0, 10_000, 20_000),
                c(SlowClients.How.HELD, 0, 500, 20_000)), 2_000, 15_000, 0, "bound", null);

        assertThat(f.peakHeld()).isEqualTo(2);
        assertThat(f.heldAtTraffic()).isEqualTo(2);
        assertThat(f.heldAfterTraffic()).isEqualTo(2);
        assertThat(f.opened()).isEqualTo(3);
        assertThat(f.attackSeconds()).isEqualTo(20.0);
    }

    @Test
    void endingsAreGroupedByHowAndByStatusOnlyWhereTheEdgeAnswered() {
        AttackFigures f = AttackFigures.of(ATTACK, List.of(
                c(SlowClients.How.ANSWERED, 429, 1_000, 1_000), c(SlowClients.How.ANSWERED, 429, 1_000, 1_100),
                c(SlowClients.How.ANSWERED, 408, 1_000, 11_000),
                c(SlowClients.How.HELD, 200, 1_000, 21_000), c(SlowClients.How.HELD, 0, 1_000, 21_000),
                c(SlowClients.How.REFUSED, 0, 0, 5_000)), 2_000, 3_000, 1_000, "bound", null);

        assertThat(f.endings()).extracting(e -> e.how() + " " + e.status() + " x" + e.count())
                .containsExactly("answered 429 x2", "held 0 x2", "answered 408 x1", "refused 0 x1");
        assertThat(f.held()).isEqualTo(2);
        assertThat(f.opened()).isEqualTo(5);
        assertThat(f.endings().get(0).words()).isEqualTo("2 answered 429 by the edge after 0.0 s (median; at most 0.1 s)");
        assertThat(f.endings().get(0).endedByEdge()).isTrue();
        assertThat(f.endings().get(1).endedByEdge()).isFalse();
    }

    @Test
    void aStatusLineIsReadOnlyFromAnHttpAnswer() {
        assertThat(SlowClients.parseStatus("HTTP/1.1 408 Request Time-out")).isEqualTo(408);
        assertThat(SlowClients.parseStatus("HTTP/1.1 4x8")).isZero();
        assertThat(SlowClients.parseStatus("garbage and more")).isZero();
        assertThat(SlowClients.parseStatus("HTTP/1.1")).isZero();
    }

    @Test
    void stubStatusGivesTheEdgesOwnConnectionCounts() {
        var page = dev.ratecache.suite.nginx.StubStatus.parse("""
                Active connections: 514\s
                server accepts handled requests
                 1500 1500 4000\s
                Reading: 500 Writing: 13 Waiting: 1\s
                """).orElseThrow();
        assertThat(EdgeConnections.counts(page)).isEqualTo(new EdgeConnections.Counts(514, 500, 13, 1));
    }
}
