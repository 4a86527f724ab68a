package dev.ratecache.suite.matrix;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class CompletenessTest {

    @Test
    void everyExpectedSampleRecordedIsComplete() {
        assertThat(Completeness.problem(100, 100)).isEmpty();
    }

    @Test
    void fewerSamplesThanThePlanSendsIsIncompleteSayingBoth() {
        assertThat(Completeness.problem(90, 100)).contains("incomplete: the client recorded 90 samples of 100");
    }

    @Test
    void noSampleAtAllIsIncompleteEvenWhenThePlanCannotSayHowMany() {
        assertThat(Completeness.problem(0, 0)).contains("incomplete: the client recorded 0 samples");
    }

    @Test
    void aPlanThatCannotSayHowManyTakesWhatCame() {
        assertThat(Completeness.problem(37, 0)).isEmpty();
    }

    /** The second probe's silent failure: a dead origin gave 100 % errors and "every cell completed". */
    @Test
    void aCellWhoseEveryRequestFailedIsNotCompleted() {
        assertThat(Completeness.allFailed(summary(120, 0, 120))).contains("every request failed (120 of 120, none"
                + " answered or rejected by a limit): is the origin up and reachable from the tiers?");
    }

    @Test
    void aCellWithOneAnswerOrOneRejectionIsCompleted() {
        assertThat(Completeness.allFailed(summary(120, 0, 119))).isEmpty();
        // A limit that rejected every request answered them all: that is a measurement, not a failure.
        assertThat(Completeness.allFailed(summary(120, 120, 0))).isEmpty();
        assertThat(Completeness.allFailed(summary(0, 0, 0))).isEmpty();
    }

    private static dev.ratecache.jtl.JtlSummary summary(long samples, long rejected, long otherErrors) {
        return new dev.ratecache.jtl.JtlSummary(samples, rejected, otherErrors, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1000);
    }
}
