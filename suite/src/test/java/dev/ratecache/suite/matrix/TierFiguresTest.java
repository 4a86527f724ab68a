package dev.ratecache.suite.matrix;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.ratecache.jtl.Sample;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Per-tier figures of a keys cell, the noisy-neighbour figure and Jain's fairness index. */
class TierFiguresTest {
    private static final long T0 = 1_700_000_000_000L;

    private static Sample sample(long offsetMs, long elapsed, String label, String code) {
        boolean ok = code.startsWith("2");
        return new Sample(T0 + offsetMs, elapsed, label, code, ok ? "OK" : "Too Many Requests", "t", ok, 100, 1,
                "http://x/hare", "HIT", ok ? "" : "1");
    }

    @Test
    void jainIsOneForEqualSharesAndOneOverNWhenOneTakesAll() {
        assertThat(TierFigures.jain(List.of(5.0, 5.0, 5.0, 5.0))).isEqualTo(1.0);
        assertThat(TierFigures.jain(List.of(8.0, 0.0, 0.0, 0.0))).isEqualTo(0.25);
        // (1+2+3)^2 / (3 * (1+4+9)) = 36 / 42
        assertThat(TierFigures.jain(List.of(1.0, 2.0, 3.0))).isCloseTo(36.0 / 42.0, within(1e-12));
        assertThat(TierFigures.jain(List.of(0.0, 0.0))).as("equal shares of nothing").isEqualTo(1.0);
        assertThatThrownBy(() -> TierFigures.jain(List.of())).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> TierFigures.jain(List.of(1.0, -1.0))).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void perTierAdmittedRateRejectedShareAndP95OfAdmittedOnly() {
        List<Sample> samples = new ArrayList<>();
        // 10 s window: free-1 and free-2 each 10 requests, all admitted at 10..100 ms; pro-1 20 requests, 5 rejected.
        for (int i = 0; i < 10; i++) {
            samples.add(sample(i * 1000L, 10 * (i + 1), "free/free-1", "200"));
            samples.add(sample(i * 1000L + 500, 10 * (i + 1), "free/free-2", "200"));
        }
        for (int i = 0; i < 20; i++) {
            samples.add(sample(i * 500L, i < 15 ? 5 : 400, "pro/pro-1", i < 15 ? "200" : "429"));
        }
        samples.add(sample(9_900, 100, "pro/pro-1", "200")); // ends at 10 000 ms: the window is 10 s
        TierFigures f = TierFigures.of(samples, null);

        assertThat(f.windowSeconds()).isEqualTo(10.0);
        TierFigures.Tier free = f.tier("free");
        assertThat(free.keys()).isEqualTo(2);
        assertThat(free.admittedPerSecond()).isEqualTo(2.0);
        assertThat(free.rejectedPct()).isZero();
        assertThat(free.p95AdmittedMs()).isEqualTo(100.0);
        assertThat(free.jain()).isEqualTo(1.0);
        TierFigures.Tier pro = f.tier("pro");
        assertThat(pro.sent()).isEqualTo(21);
        assertThat(pro.rejected()).isEqualTo(5);
        assertThat(pro.rejectedPct()).isCloseTo(100.0 * 5 / 21, within(1e-9));
        assertThat(pro.p95AdmittedMs()).as("rejections' 400 ms is not an admitted latency").isEqualTo(100.0);
        assertThat(pro.jain()).as("one key: no fairness figure").isNull();
        assertThat(f.noisyRejectedPct()).isNull();
        assertThat(f.wellBehavedRejectedPct()).isCloseTo(100.0 * 5 / 41, within(1e-9));
        assertThat(f.seconds().get("free").admitted()).hasSize(11).startsWith(2L, 2L);
        assertThat(f.seconds().get("pro").rejected().stream().mapToLong(Long::longValue).sum()).isEqualTo(5);
    }

    @Test
    void theNoisyKeyIsApartFromTheWellBehavedAndFromTheTiersFairness() {
        List<Sample> samples = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            samples.add(sample(i * 10L, 1, "free/free-noisy", i < 10 ? "200" : "429"));
        }
        for (int i = 0; i < 10; i++) {
            samples.add(sample(i * 100L, 1, "free/free-1", "200"));
            samples.add(sample(i * 100L, 1, "free/free-2", i == 0 ? "429" : "200"));
        }
        TierFigures f = TierFigures.of(samples, "free-noisy");

        assertThat(f.noisyRejectedPct()).isEqualTo(90.0);
        assertThat(f.wellBehavedRejectedPct()).isEqualTo(5.0);
        TierFigures.Tier free = f.tier("free");
        assertThat(free.perKey()).filteredOn(TierFigures.Key::noisy).extracting(TierFigures.Key::key)
                .containsExactly("free-noisy");
        // well-behaved 10 and 9 admitted over the same window: (19)^2 / (2 * (100 + 81))
        assertThat(free.jain()).isCloseTo(361.0 / 362.0, within(1e-12));
        assertThat(free.rejectedPct()).isCloseTo(100.0 * 91 / 120, within(1e-9));
    }

    @Test
    void otherErrorsAreNeitherAdmittedNorRejected() {
        TierFigures f = TierFigures.of(List.of(sample(0, 1, "free/a", "200"), sample(0, 1000, "free/a", "502")),
                null);
        assertThat(f.tier("free").admitted()).isEqualTo(1);
        assertThat(f.tier("free").rejected()).isZero();
        assertThat(TierFigures.of(List.of(), null)).isNull();
    }
}
