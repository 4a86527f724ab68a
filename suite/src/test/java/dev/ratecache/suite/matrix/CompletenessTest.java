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
}
