package dev.ratecache.suite.kinds.quotas;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.jtl.Sample;
import dev.ratecache.suite.edge.EdgeEvent;
import dev.ratecache.suite.matrix.Cell;
import dev.ratecache.suite.spec.Quota;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A quotas cell's figures, from what the edges logged of each request and what the client sent. */
class QuotaFiguresTest {
    /** A window's start: 3 requests a second, fixed windows. */
    private static final long T0 = 1_795_752_000_000L;
    private static final QuotaTraffic FIXED = new QuotaTraffic(new Quota(3, 1, Quota.Window.FIXED), 3);
    private static final Cell CELL = QuotaCells.of(FIXED.quota(), "X-Api-Key", 3).stream()
            .filter(c -> c.name().equals("quotas/fixed")).findFirst().orElseThrow();

    private final List<EdgeEvent> front = new ArrayList<>();
    private final List<Sample> sent = new ArrayList<>();

    /** One request of {@code key}, sent a millisecond before the quota decided it at T0 + {@code atMs}. */
    private void request(String key, long atMs, String status, long remaining) {
        boolean admitted = status.equals("PASSED") || status.equals("FALLBACK");
        front.add(new EdgeEvent(T0 + atMs, T0 + atMs + 1, "127.0.0.1", "GET", "/hare", admitted ? 200 : 429, 89,
                EdgeEvent.Limit.PASSED, EdgeEvent.Cache.HIT, "", 0, "",
                new EdgeEvent.QuotaMark(status, T0 + atMs, remaining, EdgeEvent.QuotaMark.ofKey(key))));
        sent.add(new Sample(T0 + atMs - 1, 2, QuotaTraffic.TIER + "/" + key, admitted ? "200" : "429", "", "t", true,
                89, 1, "", "HIT", admitted ? "" : "1"));
    }

    @Test
    void aKeyRunsOutItsWindowAndIsAdmittedAgainInTheNext() {
        request(QuotaTraffic.EARLY, 1, "PASSED", 2);
        request(QuotaTraffic.EARLY, 100, "PASSED", 1);
        request(QuotaTraffic.EARLY, 200, "PASSED", 0);
        request(QuotaTraffic.EARLY, 300, "REJECTED", 0);
        request(QuotaTraffic.EARLY, 1_100, "PASSED", 2);
        request(QuotaTraffic.SPREAD, 500, "PASSED", 2);

        QuotaFigures f = QuotaFigures.of(CELL, FIXED, sent, front);

        QuotaFigures.KeyFigures early = f.keys().get(0);
        assertThat(early.key()).isEqualTo(QuotaTraffic.EARLY);
        assertThat(early.sent()).isEqualTo(5);
        assertThat(early.admitted()).isEqualTo(4);
        assertThat(early.quotaRejected()).isEqualTo(1);
        assertThat(early.otherRejected()).isZero();
        assertThat(early.windows()).containsExactly(new QuotaFigures.Window(T0, 3, 1, T0 + 300, 0, 0),
                new QuotaFigures.Window(T0 + 1_000, 1, 0, -1, 0, 0));
        assertThat(early.firstExhaustedAfterSeconds()).isEqualTo(0.3);
        assertThat(early.mostInWindow()).isEqualTo(3);
        assertThat(early.seconds()).containsEntry(0L, new QuotaFigures.Second(3, 1, 0))
                .containsEntry(1L, new QuotaFigures.Second(1, 0, 2));
        // The model, at the client's send times, a millisecond earlier: the same decisions (none on a window's edge).
        assertThat(early.predicted()).isEqualTo(new QuotaFigures.Predicted(4, 1, 0.299));
        assertThat(f.keys().get(1).quotaRejected()).isZero();
        assertThat(f.modelAgrees()).isEqualTo(f.modelDecisions()).isEqualTo(6);
        assertThat(f.mostInAFixedWindow()).isEqualTo(3);
        assertThat(f.terminalLine()).contains("early-1 4 admitted, 1 quota 429 (out after 0.3 s)",
                "model agrees on 6 of 6");
    }

    @Test
    void theReplayCatchesADecisionTheModelWouldNotHaveMade() {
        request(QuotaTraffic.EARLY, 0, "PASSED", 2);
        request(QuotaTraffic.EARLY, 100, "PASSED", 1);
        request(QuotaTraffic.EARLY, 200, "PASSED", 0);
        request(QuotaTraffic.EARLY, 300, "PASSED", 0);

        QuotaFigures f = QuotaFigures.of(CELL, FIXED, sent, front);

        assertThat(f.modelAgrees()).isEqualTo(3);
        assertThat(f.modelDecisions()).isEqualTo(4);
        assertThat(f.keys().get(0).windows().get(0).counted()).isEqualTo(4);
    }

    @Test
    void withinOneMillisecondAKeysAdmissionComesBeforeItsRejection() {
        request(QuotaTraffic.EARLY, 0, "PASSED", 2);
        request(QuotaTraffic.EARLY, 1, "PASSED", 1);
        request(QuotaTraffic.EARLY, 2, "REJECTED", 0);
        request(QuotaTraffic.EARLY, 2, "PASSED", 0);

        assertThat(QuotaFigures.of(CELL, FIXED, sent, front).modelAgrees()).isEqualTo(4);
    }

    @Test
    void whatAnEdgeAdmittedAloneWhileRedisFailedIsCountedApartAndNotReplayed() {
        request(QuotaTraffic.EARLY, 0, "PASSED", 2);
        request(QuotaTraffic.EARLY, 10, "FALLBACK", 0);

        QuotaFigures f = QuotaFigures.of(CELL, FIXED, sent, front);

        assertThat(f.fallbacks()).isEqualTo(1);
        assertThat(f.modelDecisions()).isEqualTo(1);
        assertThat(f.keys().get(0).windows().get(0).fellBack()).isEqualTo(1);
        assertThat(f.keys().get(0).windows().get(0).counted()).isEqualTo(1);
    }

    @Test
    void aCellWhoseEdgesLoggedNoQuotaHasNoFigures() {
        front.add(new EdgeEvent(T0, T0 + 1, "127.0.0.1", "GET", "/hare", 200, 89, EdgeEvent.Limit.PASSED,
                EdgeEvent.Cache.HIT, "", 0, ""));

        assertThat(QuotaFigures.of(CELL, FIXED, sent, front)).isNull();
    }

    @Test
    void theLibrarysCellCountsItsPacedKeyWhateverItsLabels() {
        Cell library = QuotaCells.of(FIXED.quota(), "X-Api-Key", 3).stream()
                .filter(c -> c.name().equals("quotas/fixed.library")).findFirst().orElseThrow();
        request(QuotaTraffic.PACED, 0, "PASSED", 2);
        sent.replaceAll(s -> new Sample(s.timeStamp(), s.elapsed(), "/hare", s.responseCode(), "", "t", true, 89, 1,
                "", "", ""));

        QuotaFigures f = QuotaFigures.of(library, FIXED, sent, front);

        assertThat(f.keys()).extracting(QuotaFigures.KeyFigures::key).containsExactly(QuotaTraffic.PACED);
        assertThat(f.keys().get(0).sent()).isEqualTo(1);
        assertThat(f.keys().get(0).admitted()).isEqualTo(1);
    }
}
