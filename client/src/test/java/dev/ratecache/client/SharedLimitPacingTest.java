package dev.ratecache.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The pacer's share of a limit that other clients spend too (several clients with one API key),
 * on a clock driven by hand: a 429 met while keeping to the policy halves what the client sent,
 * a later one cuts it to what it was admitted lately (less a margin, never below three quarters of
 * what it sent), once per congestion, and the rate grows back evenly until it is the policy's again.
 */
class SharedLimitPacingTest {
    private static final String HOST = "http://edge";
    private static final long SECOND = 1_000_000_000L;
    private final long[] now = {10 * SECOND};
    private PolicyPacer pacer;

    @BeforeEach
    void learnTheKeysPolicy() {
        pacer = new PolicyPacer(() -> now[0]);
        pacer.learn(HOST, "\"team\";q=20;w=1;ratecache-burst=10");
    }

    /** {@code sent} requests evenly over {@code seconds}, the first {@code admitted} of them admitted, the rest not answered yet. */
    private void send(int sent, int admitted, double seconds) {
        for (int i = 0; i < sent; i++) {
            now[0] += Math.round(seconds * SECOND / sent);
            pacer.reserve(HOST);
            if (i < admitted) {
                pacer.admitted(HOST);
            }
        }
    }

    @Test
    void aClientThatMeetsNo429KeepsThePolicysRate() {
        send(40, 40, 2);
        assertThat(pacer.rate(HOST)).isEqualTo(20);
    }

    @Test
    void theFirst429HalvesWhatWasSentAndALaterOneCutsToWhatWasAdmittedButNotFar() {
        send(12, 8, 2);              // about 6 r/s sent (over the ring's span, which starts at the first request)
        pacer.rejected(HOST);
        double first = pacer.rate(HOST);
        assertThat(first).isBetween(0.5 * 5.8, 0.5 * 6.9);

        now[0] += 2 * SECOND;
        send(6, 0, 2);               // at the share, none admitted: cut, but to no less than 3/4 of it
        pacer.rejected(HOST);
        double second = pacer.rate(HOST);
        assertThat(second).isLessThan(first).isGreaterThanOrEqualTo(PolicyPacer.Share.FLOOR * first * 0.9);

        now[0] += 2 * SECOND;
        send(6, 6, 2);               // all admitted: 0.9 of what was admitted
        double before = pacer.rate(HOST);
        pacer.rejected(HOST);
        assertThat(pacer.rate(HOST)).isLessThan(before).isGreaterThanOrEqualTo(PolicyPacer.Share.FLOOR * before);
    }

    @Test
    void the429sOfOneCongestionCutOnce() {
        send(12, 8, 2);
        pacer.rejected(HOST);
        double cut = pacer.rate(HOST);
        now[0] += SECOND;
        pacer.rejected(HOST);
        assertThat(pacer.rate(HOST)).isCloseTo(cut + 20 * PolicyPacer.Share.GROWTH, within(0.001));
    }

    @Test
    void theRateGrowsBackEvenlyAndTheShareEndsAtThePolicysRate() {
        send(12, 8, 2);
        pacer.rejected(HOST);
        double cut = pacer.rate(HOST);
        now[0] += 10 * SECOND;
        assertThat(pacer.rate(HOST)).isCloseTo(cut + 10 * 20 * PolicyPacer.Share.GROWTH, within(0.001));
        now[0] += Math.round((20 - cut) / (20 * PolicyPacer.Share.GROWTH) * SECOND);
        pacer.reserve(HOST);
        assertThat(pacer.rate(HOST)).isEqualTo(20);
    }

    @Test
    void requestsAfterACutAreSpacedAtTheShare() {
        send(12, 0, 2);
        pacer.rejected(HOST);
        double share = pacer.rate(HOST);
        long first = pacer.reserve(HOST);
        long second = pacer.reserve(HOST);
        assertThat(first).isGreaterThanOrEqualTo(now[0]);
        assertThat((double) (second - first)).isCloseTo(SECOND / share, within(SECOND / 100.0));
    }

    @Test
    void aQuotaOr429WithoutAPolicyChangesNothing() {
        PolicyPacer fresh = new PolicyPacer(() -> now[0]);
        fresh.rejected(HOST);
        fresh.admitted(HOST);
        assertThat(fresh.rate(HOST)).isZero();
        assertThat(fresh.reserve(HOST)).isEqualTo(now[0]);
    }
}
