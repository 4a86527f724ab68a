package dev.ratecache.suite.jmeter;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** JMeter's console output as a run prints it (5.6.3, the quick stress cell), read for the live line. */
class SummariserTest {

    @Test
    void addsUpTheIntervalsAndLeavesOutTheirTotalsAndEverythingElse() {
        Summariser s = new Summariser();
        for (String line : new String[] {
            "WARN StatusConsoleListener The use of package scanning to locate plugins is deprecated",
            "Creating summariser <summary>",
            "summary +      1 in 00:00:01 =    1.6/s Avg:    59 Min:    59 Max:    59 Err:     0 (0.00%) Active: 14 Started: 14 Finished: 0",
            "summary +    199 in 00:00:02 =  102.2/s Avg:   409 Min:    59 Max:   689 Err:    12 (6.03%) Active: 0 Started: 100 Finished: 100",
            "summary =    200 in 00:00:03 =   78.2/s Avg:   407 Min:    59 Max:   689 Err:    12 (6.00%)",
            "Tidying up ...    @ 2026 Nov 27 12:01:42 UTC (1795780902185)"}) {
            s.accept(line);
        }

        assertThat(s.samples()).isEqualTo(200);
        assertThat(s.errors()).isEqualTo(12);
        assertThat(s.rate()).contains(102.2);
    }

    @Test
    void anIntervalWithoutARateKeepsTheLastRateAndADecimalCommaIsRead() {
        Summariser s = new Summariser();
        s.accept("summary +     40 in 00:00:05 =    8,0/s Avg:    10 Min:     1 Max:    20 Err:     0 (0,00%) Active: 1 Started: 1 Finished: 0");
        s.accept("summary +      2 in 00:00:00 = ******/s Avg:    10 Min:     1 Max:    20 Err:     1 (50,00%) Active: 0 Started: 1 Finished: 1");

        assertThat(s.samples()).isEqualTo(42);
        assertThat(s.errors()).isEqualTo(1);
        assertThat(s.rate()).contains(8.0);
    }

    @Test
    void nothingYetIsNoSamplesAndNoRate() {
        Summariser s = new Summariser();
        s.accept("Starting standalone test @ 2026 Nov 27 12:01:39 UTC (1795780899480)");

        assertThat(s.samples()).isZero();
        assertThat(s.rate()).isEmpty();
    }
}
