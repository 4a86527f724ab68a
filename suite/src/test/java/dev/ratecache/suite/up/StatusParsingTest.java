package dev.ratecache.suite.up;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.suite.edge.AccessLogTail;
import java.time.LocalTime;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** The status line's parsing and arithmetic, without a stack. */
class StatusParsingTest {
    @Test
    void formatsRatesPerSecondLessThePollsOwnRequests() {
        StatusLine.Reading before = new StatusLine.Reading(OptionalLong.of(100), OptionalLong.of(50), OptionalLong.of(10),
                OptionalLong.of(0));
        StatusLine.Reading after = new StatusLine.Reading(OptionalLong.of(301), OptionalLong.of(71), OptionalLong.of(30),
                OptionalLong.of(4));
        String line = StatusLine.format(LocalTime.of(12, 0, 3), before, after, 2.0,
                new AccessLogTail.Counts(200, 50, 150), 1);
        assertThat(line).isEqualTo(
                "12:00:03  front 100.0  back 10.0  origin 10.0 req/s  rejected 25.0/s  HIT 75.0 %  in-flight 4");
    }

    @Test
    void showsADashForWhatCouldNotBeReadAndForAnIntervalWithNoResponses() {
        StatusLine.Reading none = new StatusLine.Reading(OptionalLong.empty(), OptionalLong.of(5), OptionalLong.empty(),
                OptionalLong.empty());
        StatusLine.Reading idle = new StatusLine.Reading(OptionalLong.of(7), OptionalLong.of(6), OptionalLong.empty(),
                OptionalLong.empty());
        assertThat(StatusLine.format(LocalTime.of(0, 0), none, idle, 2.0, AccessLogTail.Counts.NONE, 1))
                .isEqualTo("00:00:00  front -  back 0.0  origin - req/s  rejected 0.0/s  HIT - %  in-flight -");
        // A counter that went back (a tier restarted) is not a rate.
        assertThat(StatusLine.rate(OptionalLong.of(100), OptionalLong.of(3), 1, 2.0)).isEqualTo("-");
    }

    /** Varnish's counters, read as nginx's figures are, make the same line (the reading LiveCountersTest checks). */
    @Test
    void formatsVarnishsReadingAsAnyOther() {
        assertThat(StatusLine.format(LocalTime.of(12, 0, 2), new StatusLine.Reading(OptionalLong.of(100),
                OptionalLong.of(10), OptionalLong.empty(), OptionalLong.empty()), new StatusLine.Reading(
                OptionalLong.of(200), OptionalLong.of(20), OptionalLong.empty(), OptionalLong.empty()), 2.0,
                new AccessLogTail.Counts(100, 25, 50), 0))
                .isEqualTo("12:00:02  front 50.0  back 5.0  origin - req/s  rejected 12.5/s  HIT 50.0 %  in-flight -");
    }
}
