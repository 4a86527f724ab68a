package dev.ratecache.suite.model;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.model.LimitReqSpec;
import dev.ratecache.model.Rate;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The whole two-tier simulation against two logs nginx wrote, as LimitReqAgainstNginxTest sets the tiers up. */
class TwoTierComparisonTest {

    static final LimitReqSpec FRONT = LimitReqSpec.queue(Rate.perSecond(5), 2);
    static final LimitReqSpec BACK = LimitReqSpec.queue(Rate.perSecond(8), 3).withRejectStatus(429);

    /** Lines of "start-ms id address $limit_req_status $request_time-ms", as the test's tables print them. */
    static List<Nginx.LogLine> log(String table) {
        return table.lines().map(String::strip).filter(l -> !l.isEmpty()).map(l -> l.split(" ")).map(f -> {
            long start = 1_000_000 + Long.parseLong(f[0]);
            long rt = Long.parseLong(f[4]);
            return new Nginx.LogLine(start + rt, rt, f[2], f[3], "REJECTED".equals(f[3]) ? 429 : 200, f[1], "-");
        }).toList();
    }

    /** From a run that failed: both tiers matched their own logs, yet the simulation admitted t-39 at the back. */
    static final String FRONT_LOG = """
            0 t-0 127.16.0.5 PASSED 0
            0 t-2 127.16.0.7 PASSED 125
            1 t-1 127.16.0.6 PASSED 250
            67 t-3 127.16.0.5 DELAYED 309
            138 t-4 127.16.0.5 DELAYED 612
            149 t-5 127.16.0.6 DELAYED 352
            209 t-6 127.16.0.5 DELAYED 667
            276 t-7 127.16.0.5 REJECTED 0
            297 t-8 127.16.0.6 DELAYED 105
            361 t-9 127.16.0.5 REJECTED 0
            396 t-10 127.16.0.7 PASSED 231
            416 t-11 127.16.0.5 DELAYED 710
            446 t-12 127.16.0.6 DELAYED 155
            488 t-13 127.16.0.5 REJECTED 0
            557 t-14 127.16.0.5 REJECTED 0
            596 t-15 127.16.0.6 DELAYED 208
            627 t-16 127.16.0.5 DELAYED 623
            697 t-17 127.16.0.5 REJECTED 0
            749 t-18 127.16.0.6 DELAYED 627
            766 t-19 127.16.0.5 REJECTED 0
            796 t-20 127.16.0.7 PASSED 204
            838 t-21 127.16.0.5 DELAYED 362
            896 t-22 127.16.0.6 DELAYED 306
            907 t-23 127.16.0.5 REJECTED 0
            978 t-24 127.16.0.5 REJECTED 0
            1047 t-25 127.16.0.5 DELAYED 579
            1047 t-26 127.16.0.6 DELAYED 703
            1118 t-27 127.16.0.5 REJECTED 0
            1186 t-28 127.16.0.5 REJECTED 0
            1197 t-30 127.16.0.7 PASSED 303
            1197 t-29 127.16.0.6 REJECTED 0
            1256 t-31 127.16.0.5 DELAYED 344
            1330 t-32 127.16.0.5 REJECTED 0
            1346 t-33 127.16.0.6 DELAYED 255
            1397 t-34 127.16.0.5 REJECTED 0
            1466 t-35 127.16.0.5 DELAYED 534
            1496 t-36 127.16.0.6 DELAYED 630
            1541 t-37 127.16.0.5 REJECTED 0
            1596 t-38 127.16.0.7 PASSED 279
            1606 t-39 127.16.0.5 DELAYED 393
            1647 t-40 127.16.0.6 DELAYED 730
            1677 t-41 127.16.0.5 REJECTED 0
            1749 t-42 127.16.0.5 REJECTED 0
            1797 t-43 127.16.0.6 REJECTED 0
            1817 t-44 127.16.0.5 DELAYED 684
            1889 t-45 127.16.0.5 REJECTED 0
            1946 t-46 127.16.0.6 DELAYED 255
            1956 t-47 127.16.0.5 REJECTED 0
            1997 t-48 127.16.0.7 PASSED 254
            """;

    static final String BACK_LOG = """
            0 t-0 127.0.0.1 PASSED 0
            0 t-2 127.0.0.1 DELAYED 125
            1 t-1 127.0.0.1 DELAYED 249
            200 t-3 127.0.0.1 DELAYED 175
            202 t-5 127.0.0.1 DELAYED 299
            396 t-10 127.0.0.1 DELAYED 231
            401 t-4 127.0.0.1 DELAYED 349
            401 t-8 127.0.0.1 REJECTED 0
            600 t-6 127.0.0.1 DELAYED 276
            601 t-12 127.0.0.1 REJECTED 0
            796 t-20 127.0.0.1 DELAYED 204
            799 t-11 127.0.0.1 DELAYED 327
            804 t-15 127.0.0.1 REJECTED 0
            999 t-16 127.0.0.1 DELAYED 251
            1002 t-18 127.0.0.1 DELAYED 374
            1197 t-30 127.0.0.1 DELAYED 303
            1200 t-21 127.0.0.1 REJECTED 0
            1202 t-22 127.0.0.1 REJECTED 0
            1399 t-25 127.0.0.1 DELAYED 227
            1401 t-26 127.0.0.1 DELAYED 349
            1596 t-38 127.0.0.1 DELAYED 279
            1600 t-31 127.0.0.1 REJECTED 0
            1601 t-33 127.0.0.1 REJECTED 0
            1799 t-35 127.0.0.1 DELAYED 201
            1801 t-36 127.0.0.1 DELAYED 325
            1997 t-48 127.0.0.1 DELAYED 253
            1999 t-39 127.0.0.1 REJECTED 0
            2002 t-40 127.0.0.1 DELAYED 375
            2200 t-44 127.0.0.1 DELAYED 301
            2201 t-46 127.0.0.1 REJECTED 0
            """;

    /**
     * The back logged t-39 at 1999 ms, a millisecond before the front let it go by the front's log
     * (1606 + 394): the two logs' wall clocks against one monotonic timer. Placed at 2000 ms, it
     * found the bucket 8 lighter and was admitted; at 1999 ms, as nginx saw it, it was rejected.
     */
    @Test
    void aRequestTheBacksLogPutsBeforeTheFrontsReleaseIsDecidedAtItsLoggedTime() {
        TwoTierComparison.Result result = TwoTierComparison.compare(FRONT, BACK, log(FRONT_LOG), log(BACK_LOG));

        assertThat(result.compared()).isEqualTo(49);
        assertThat(result.disagreements()).allMatch(TwoTierComparison.Disagreement::boundary);
        assertThat(result.disagreements()).extracting(TwoTierComparison.Disagreement::id).doesNotContain("t-39");
    }

    /** A back limit of another rate is not saved by moving a millisecond or two. */
    @Test
    void aWrongBackRateLeavesDisagreementsNoShiftExplains() {
        TwoTierComparison.Result result = TwoTierComparison.compare(FRONT,
                LimitReqSpec.queue(Rate.perSecond(6), 3).withRejectStatus(429), log(FRONT_LOG), log(BACK_LOG));

        assertThat(result.disagreements()).anyMatch(d -> !d.boundary());
    }

    /**
     * From a run beside two busy loops: at the back the model gave t-40 (2002 ms) the slot nginx gave
     * t-39 (2000 ms), and the other way round. The later one is explained by a shift; the earlier one
     * is the same swap seen from its side, and pairs with the one after it.
     */
    static final String SWAPPED_FRONT_LOG = """
            0 t-0 127.16.0.5 PASSED 1
            2 t-1 127.16.0.6 PASSED 124
            4 t-2 127.16.0.7 PASSED 247
            70 t-3 127.16.0.5 DELAYED 306
            139 t-4 127.16.0.5 DELAYED 611
            150 t-5 127.16.0.6 DELAYED 351
            212 t-6 127.16.0.5 DELAYED 664
            283 t-7 127.16.0.5 REJECTED 0
            300 t-8 127.16.0.6 DELAYED 103
            353 t-9 127.16.0.5 REJECTED 0
            399 t-10 127.16.0.7 PASSED 227
            420 t-11 127.16.0.5 DELAYED 714
            450 t-12 127.16.0.6 DELAYED 152
            492 t-13 127.16.0.5 REJECTED 0
            560 t-14 127.16.0.5 REJECTED 0
            600 t-15 127.16.0.6 DELAYED 203
            629 t-16 127.16.0.5 DELAYED 622
            706 t-17 127.16.0.5 REJECTED 0
            749 t-18 127.16.0.6 DELAYED 627
            769 t-19 127.16.0.5 REJECTED 0
            799 t-20 127.16.0.7 PASSED 202
            844 t-21 127.16.0.5 DELAYED 357
            900 t-22 127.16.0.6 DELAYED 303
            910 t-23 127.16.0.5 REJECTED 0
            980 t-24 127.16.0.5 REJECTED 0
            1050 t-25 127.16.0.5 DELAYED 576
            1050 t-26 127.16.0.6 DELAYED 700
            1119 t-27 127.16.0.5 REJECTED 0
            1189 t-28 127.16.0.5 REJECTED 0
            1200 t-30 127.16.0.7 PASSED 301
            1200 t-29 127.16.0.6 REJECTED 0
            1260 t-31 127.16.0.5 DELAYED 341
            1330 t-32 127.16.0.5 REJECTED 0
            1349 t-33 127.16.0.6 DELAYED 256
            1399 t-34 127.16.0.5 REJECTED 0
            1469 t-35 127.16.0.5 DELAYED 531
            1500 t-36 127.16.0.6 DELAYED 626
            1540 t-37 127.16.0.5 REJECTED 0
            1600 t-38 127.16.0.7 PASSED 276
            1610 t-39 127.16.0.5 DELAYED 641
            1649 t-40 127.16.0.6 DELAYED 354
            1680 t-41 127.16.0.5 REJECTED 0
            1749 t-42 127.16.0.5 REJECTED 0
            1800 t-43 127.16.0.6 REJECTED 0
            1819 t-44 127.16.0.5 DELAYED 681
            1889 t-45 127.16.0.5 REJECTED 0
            1950 t-46 127.16.0.6 DELAYED 253
            1959 t-47 127.16.0.5 REJECTED 0
            2000 t-48 127.16.0.7 PASSED 376
            """;

    static final String SWAPPED_BACK_LOG = """
            1 t-0 127.0.0.1 PASSED 0
            2 t-1 127.0.0.1 DELAYED 124
            4 t-2 127.0.0.1 DELAYED 247
            200 t-3 127.0.0.1 DELAYED 176
            202 t-5 127.0.0.1 DELAYED 299
            400 t-10 127.0.0.1 DELAYED 225
            401 t-4 127.0.0.1 DELAYED 349
            403 t-8 127.0.0.1 REJECTED 0
            601 t-6 127.0.0.1 DELAYED 274
            602 t-12 127.0.0.1 REJECTED 0
            799 t-20 127.0.0.1 DELAYED 202
            800 t-11 127.0.0.1 DELAYED 334
            803 t-15 127.0.0.1 REJECTED 0
            1001 t-16 127.0.0.1 DELAYED 250
            1002 t-18 127.0.0.1 DELAYED 374
            1200 t-30 127.0.0.1 DELAYED 301
            1201 t-21 127.0.0.1 REJECTED 0
            1203 t-22 127.0.0.1 REJECTED 0
            1400 t-25 127.0.0.1 DELAYED 226
            1402 t-26 127.0.0.1 DELAYED 348
            1600 t-38 127.0.0.1 DELAYED 276
            1601 t-31 127.0.0.1 REJECTED 0
            1605 t-33 127.0.0.1 REJECTED 0
            1801 t-35 127.0.0.1 DELAYED 199
            1802 t-36 127.0.0.1 DELAYED 324
            2000 t-39 127.0.0.1 DELAYED 250
            2000 t-48 127.0.0.1 DELAYED 376
            2002 t-40 127.0.0.1 REJECTED 0
            2203 t-44 127.0.0.1 DELAYED 297
            2203 t-46 127.0.0.1 REJECTED 0
            """;

    @Test
    void aSlotTheModelGaveToALaterRequestPairsTheEarlierOneNginxGaveItTo() {
        TwoTierComparison.Result result = TwoTierComparison.compare(FRONT, BACK, log(SWAPPED_FRONT_LOG),
                log(SWAPPED_BACK_LOG));

        assertThat(result.compared()).isEqualTo(49);
        assertThat(result.disagreements()).extracting(TwoTierComparison.Disagreement::id).contains("t-39");
        assertThat(result.disagreements()).allMatch(TwoTierComparison.Disagreement::boundary);
    }
}
