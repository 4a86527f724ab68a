package dev.ratecache.suite.model;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.model.LimitReqSpec;
import dev.ratecache.model.Rate;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** How the comparison reads a log whose wall-clock milliseconds are not limit_req's monotonic ones. */
class NginxComparisonTest {

    static final LimitReqSpec BACK = LimitReqSpec.queue(Rate.perSecond(8), 3).withRejectStatus(429);

    /** Start (ms), $limit_req_status and $request_time, as the back tier of a CI run logged them. */
    static List<Nginx.LogLine> log(Object... rows) {
        List<Nginx.LogLine> lines = new ArrayList<>();
        for (int i = 0; i < rows.length; i += 3) {
            long start = 1_000_000 + (Integer) rows[i];
            long rt = (Integer) rows[i + 2];
            String status = (String) rows[i + 1];
            lines.add(new Nginx.LogLine(start + rt, rt, "127.0.0.1", status,
                    "REJECTED".equals(status) ? 429 : 200, "r-" + i / 3, "-"));
        }
        return lines;
    }

    @Test
    void aRequestNginxDecidedAsTheModelDoesMatches() {
        List<NginxComparison.Row> rows = NginxComparison.compare(
                log(0, "PASSED", 0, 0, "DELAYED", 125, 0, "DELAYED", 250, 0, "DELAYED", 375, 0, "REJECTED", 0),
                BACK, l -> "origin");
        assertThat(rows).allMatch(NginxComparison.Row::matched);
    }

    /**
     * Logged 201 ms after the last one, the first request at 1000 was 200 ms after it on
     * limit_req's clock: its bucket held 8 more (a 251 ms delay, logged 250), and the second request
     * of that millisecond, one over the burst, was rejected. Moving the predecessor alone, or the
     * request alone, cannot give that; moving the millisecond the two share does.
     */
    @Test
    void aPredecessorsMillisecondOffByOneIsABoundaryNotAMismatch() {
        List<NginxComparison.Row> rows = NginxComparison.compare(log(
                0, "PASSED", 0, 0, "DELAYED", 125, 0, "DELAYED", 250,
                200, "DELAYED", 175, 200, "DELAYED", 300,
                396, "DELAYED", 229, 400, "DELAYED", 350, 400, "REJECTED", 0,
                600, "DELAYED", 275, 600, "REJECTED", 0,
                797, "DELAYED", 203, 799, "DELAYED", 326, 799, "REJECTED", 0,
                1000, "DELAYED", 250, 1000, "REJECTED", 0,
                1196, "DELAYED", 180, 1200, "DELAYED", 300, 1200, "REJECTED", 0), BACK, l -> "origin");
        assertThat(rows).as(NginxComparison.describe(rows)).allMatch(r -> r.matched() || r.tolerated());
        assertThat(rows.stream().filter(r -> !r.matched()).map(r -> r.line().id()))
                .as(NginxComparison.describe(rows)).containsExactly("r-14");
    }

    /** A model with another burst is not saved by moving a millisecond or two. */
    @Test
    void aWrongBurstStaysAMismatch() {
        List<NginxComparison.Row> rows = NginxComparison.compare(
                log(0, "PASSED", 0, 0, "DELAYED", 125, 0, "DELAYED", 250, 0, "DELAYED", 375, 0, "REJECTED", 0),
                LimitReqSpec.queue(Rate.perSecond(8), 2), l -> "origin");
        assertThat(rows).anyMatch(r -> !r.matched() && !r.tolerated());
    }
}
