package dev.ratecache.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

/** Open loads against the utilisation law, M/M/1 and Erlang C worked by hand. */
class OpenNetworkTest {

    static final double EXACT = 1e-12;

    // A 4-core machine (20 ms of CPU per request, every process's added), a single-threaded
    // nginx worker (4 ms) and the origin's 100 ms sleep.
    static final OpenNetwork CELL = OpenNetwork.of(Station.multiServer("cpu", 0.02, 4),
            Station.queueing("nginx", 0.004), Station.delay("origin", 0.1));

    @Test
    void theStationWithTheLeastCapacitySaturatesFirst() {
        // cpu: 4/0.02 = 200/s; nginx: 1/0.004 = 250/s; the delay never.
        assertThat(CELL.saturationRatePerSec()).isCloseTo(200, within(EXACT));
        assertThat(CELL.bottleneck().name()).isEqualTo("cpu");
        assertThat(OpenNetwork.of(Station.delay("sleep", 1)).bottleneck()).isNull();
        assertThat(OpenNetwork.of(Station.delay("sleep", 1)).saturationRatePerSec()).isInfinite();
    }

    @Test
    void utilisationAndResponseAtHalfTheCpu() {
        // λ = 100/s. U_cpu = 100·0.02/4 = 1/2, U_nginx = 100·0.004 = 2/5, the origin holds 100·0.1 = 10.
        // nginx, M/M/1: R = D/(1 − U) = 0.004/0.6 = 1/150.
        // cpu, M/M/4 offered a = 2: Σ_{k<4} a^k/k! = 1 + 2 + 2 + 4/3 = 19/3; (a^4/4!)/(1 − 1/2) = 4/3;
        // C = (4/3)/(19/3 + 4/3) = 4/23; R = D + C·D/(c − a) = 0.02 + (4/23)(0.01) = 1/46.
        OpenSolution s = CELL.at(100);
        assertThat(s.stable()).isTrue();
        assertThat(s.station("cpu").utilisation()).isCloseTo(0.5, within(EXACT));
        assertThat(s.station("nginx").utilisation()).isCloseTo(0.4, within(EXACT));
        assertThat(s.station("origin").utilisation()).isCloseTo(10, within(EXACT));
        assertThat(s.station("nginx").residenceSec()).isCloseTo(1.0 / 150, within(EXACT));
        assertThat(s.station("cpu").residenceSec()).isCloseTo(1.0 / 46, within(EXACT));
        assertThat(s.responseSec()).isCloseTo(1.0 / 46 + 1.0 / 150 + 0.1, within(EXACT));
        assertThat(s.station("nginx").queueLength()).isCloseTo(100.0 / 150, within(EXACT));
        assertThat(s.lambdaPerSec()).isEqualTo(100);
    }

    @Test
    void erlangCAgainstTheTextbook() {
        // M/M/2 (Kleinrock, Queueing Systems I, the M/M/m queue with m = 2): P(wait) = 2ρ²/(1 + ρ); ρ = 1/2 gives 1/3,
        // and T = (1/μ)/(1 − ρ²) = 4/3 with 1/μ = 1.
        assertThat(OpenNetwork.erlangC(2, 1)).isCloseTo(1.0 / 3, within(EXACT));
        assertThat(OpenNetwork.of(Station.multiServer("cpu", 1, 2)).at(1).responseSec()).isCloseTo(4.0 / 3, within(EXACT));
        for (double rho : new double[] {0.1, 0.5, 0.9, 0.99}) {
            assertThat(OpenNetwork.erlangC(2, 2 * rho)).isCloseTo(2 * rho * rho / (1 + rho), within(EXACT));
        }
        // One server: every arrival that finds it busy waits, P(wait) = ρ.
        assertThat(OpenNetwork.erlangC(1, 0.7)).isCloseTo(0.7, within(EXACT));
        assertThat(OpenNetwork.erlangC(4, 2)).isCloseTo(4.0 / 23, within(EXACT));
        // Hundreds of servers neither overflow nor cancel: still a probability, rising with load.
        double many = OpenNetwork.erlangC(500, 480);
        assertThat(many).isStrictlyBetween(0.0, 1.0);
        assertThat(OpenNetwork.erlangC(500, 490)).isGreaterThan(many);
    }

    @Test
    void atAndAboveSaturationTheMeansDoNotExist() {
        assertThat(CELL.at(199.9).stable()).isTrue();
        OpenSolution saturated = CELL.at(200);
        assertThat(saturated.stable()).isFalse();
        assertThat(saturated.station("cpu").utilisation()).isCloseTo(1, within(EXACT));
        assertThat(saturated.station("cpu").residenceSec()).isInfinite();
        assertThat(saturated.station("nginx").residenceSec()).isCloseTo(0.004 / 0.2, within(EXACT));
        assertThat(saturated.responseSec()).isInfinite();
        assertThat(CELL.at(300).station("nginx").utilisation()).isCloseTo(1.2, within(EXACT));
        assertThat(CELL.at(0).responseSec()).isCloseTo(0.124, within(EXACT));
        assertThatThrownBy(() -> CELL.at(-1)).hasMessageContaining("arrival rate");
        assertThatThrownBy(() -> OpenNetwork.erlangC(2, 2)).hasMessageContaining("a < c");
    }
}
