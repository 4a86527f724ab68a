package dev.ratecache.suite.advise;

import static dev.ratecache.suite.advise.WhatIfTest.request;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.accesslog.LoggedRequest;
import dev.ratecache.suite.advise.WhatIf.Outcome;
import dev.ratecache.suite.advise.WhatIf.Verdict;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Shadow mode: the model's decisions beside those nginx logged in $limit_req_status. */
class ShadowAgreementTest {
    static final String TEN_A_SECOND = "limit_req_zone $binary_remote_addr zone=z:10m rate=10r/s;"
            + " server { listen 80; limit_req zone=z burst=3 nodelay; limit_req_dry_run on; }";
    static final String ONE_A_SECOND = TEN_A_SECOND.replace("rate=10r/s", "rate=1r/s");

    /** Two clients, each sending bursts of six at once, half a second apart. */
    static List<LoggedRequest> bursts() {
        List<LoggedRequest> log = new ArrayList<>();
        for (int burst = 0; burst < 4; burst++) {
            for (String client : List.of("127.0.0.2", "127.0.0.3")) {
                for (int i = 0; i < 6; i++) {
                    log.add(request(log.size() + 1, burst * 500L + i, 0, client, "/r", ""));
                }
            }
        }
        return log;
    }

    /** {@code log} as nginx would have logged it under {@code http} in a dry run: the model's decisions, *_DRY_RUN. */
    static List<LoggedRequest> loggedUnder(String http, List<LoggedRequest> log) throws Exception {
        List<LoggedRequest> out = new ArrayList<>();
        for (Outcome o : WhatIfTest.run(http, log)) {
            LoggedRequest r = o.request();
            String status = o.verdict() == Verdict.NOT_LIMITED ? "" : o.verdict() == Verdict.PASSED ? "PASSED" : o.verdict() + "_DRY_RUN";
            out.add(new LoggedRequest(r.line(), r.time(), r.client(), r.method(), r.uri(), r.status(), r.bytes(),
                    r.requestSeconds(), r.upstreamSeconds(), r.key(), status));
        }
        out.sort(java.util.Comparator.comparingLong(LoggedRequest::line));
        return out;
    }

    static ShadowAgreement compare(String http, List<LoggedRequest> log) throws Exception {
        return ShadowAgreement.byRequest(WhatIf.run(WhatIfTest.server(http).target(), log, true));
    }

    @Test
    void nginxsDecisionsUnderTheSameConfigAgreeOnEveryRequest() throws Exception {
        List<LoggedRequest> log = loggedUnder(TEN_A_SECOND, bursts());
        ShadowAgreement a = compare(TEN_A_SECOND, log);

        assertThat(a.byRequest()).isTrue();
        assertThat(a.dryRun()).isTrue();
        assertThat(a.compared()).isEqualTo(48);
        assertThat(a.exact()).isEqualTo(48);
        assertThat(a.agreementPct()).isEqualTo(100.0);
        assertThat(a.disagreements()).isEmpty();
        assertThat(a.table().get(Verdict.REJECTED).get(Verdict.REJECTED)).isEqualTo(16);
    }

    @Test
    void aConfigWithAnotherRateDisagreesAndNamesTheFirstDisagreeingLines() throws Exception {
        List<LoggedRequest> log = loggedUnder(TEN_A_SECOND, bursts());
        ShadowAgreement a = compare(ONE_A_SECOND, log);

        // At 1 r/s the second burst, half a second on, finds the burst not yet drained.
        assertThat(a.agreementPct()).isLessThan(100.0);
        assertThat(a.disagreements()).isNotEmpty();
        assertThat(a.disagreements().get(0)).extracting(ShadowAgreement.Disagreement::line,
                ShadowAgreement.Disagreement::model, ShadowAgreement.Disagreement::nginx)
                .containsExactly(13L, "REJECTED", "PASSED");
    }

    @Test
    void aRequestLoggedAMillisecondOffLimitReqsClockAgreesAtTheBoundaryAndFiveMillisecondsDoNot() throws Exception {
        String http = "limit_req_zone $binary_remote_addr zone=z:10m rate=1r/s;"
                + " server { listen 80; limit_req zone=z nodelay; limit_req_dry_run on; }";
        // nginx's monotonic clock saw 1000 ms between them; its wall clock logged 999.
        List<LoggedRequest> log = List.of(request(1, 0, 0, "127.0.0.2", "/", "PASSED"),
                request(2, 999, 0, "127.0.0.2", "/", "PASSED"),
                request(3, 1995, 0, "127.0.0.2", "/", "PASSED"));
        ShadowAgreement a = compare(http, log);

        assertThat(a.exact()).isEqualTo(1);
        assertThat(a.atBoundary()).isEqualTo(1);
        assertThat(a.disagreements()).extracting(ShadowAgreement.Disagreement::line).containsExactly(3L);
    }

    @Test
    void wholeSecondTimesAreComparedPerClientAndMinute() throws Exception {
        String http = "limit_req_zone $binary_remote_addr zone=z:10m rate=1r/s; server { listen 80; limit_req zone=z nodelay; }";
        List<LoggedRequest> log = List.of(request(1, 0, 0, "127.0.0.2", "/", "PASSED"),
                request(2, 0, 0, "127.0.0.2", "/", "REJECTED"),
                request(3, 0, 0, "127.0.0.3", "/", "PASSED"),
                request(4, 2000, 0, "127.0.0.3", "/", "REJECTED"));
        ShadowAgreement a = ShadowAgreement.perClientMinute(WhatIf.run(WhatIfTest.server(http).target(), log));

        assertThat(a.byRequest()).isFalse();
        assertThat(a.compared()).isEqualTo(2);
        assertThat(a.exact()).isEqualTo(1);
        assertThat(a.disagreements()).extracting(ShadowAgreement.Disagreement::client, ShadowAgreement.Disagreement::model,
                ShadowAgreement.Disagreement::nginx).containsExactly(org.assertj.core.groups.Tuple.tuple("127.0.0.3",
                        "0 rejected, 0 delayed", "1 rejected, 0 delayed"));
    }

    @Test
    void theReportSaysInOneLineThatWholeSecondsCannotBeComparedRequestByRequest() throws Exception {
        List<LoggedRequest> log = List.of(request(1, 0, 0, "127.0.0.2", "/", "PASSED"));
        WhatIfReport report = WhatIfReport.of("nginx.conf", "nginx -t takes it", WhatIfTest.server(TEN_A_SECOND), log, true);

        assertThat(report.shadowLine()).startsWith("shadow: the log's times are whole seconds, too coarse to compare"
                + " request by request; per client per minute, 1 of 1 agree");
        assertThat(report.markdown()).contains("## Your config: what if", "## Shadow: the model beside nginx");
    }

    @Test
    void aLogWithoutStatusesHasNoShadowComparisonAndSaysHowToGetOne() throws Exception {
        List<LoggedRequest> log = List.of(request(1, 0, 0, "127.0.0.2", "/", ""));
        WhatIfReport report = WhatIfReport.of("nginx.conf", "nginx -t takes it", WhatIfTest.server(TEN_A_SECOND), log, false);

        assertThat(report.shadow()).isNull();
        assertThat(report.shadowLine()).contains("no $limit_req_status", AdviceWriter.DRY_RUN_LOG);
        assertThat(WhatIfReport.of("nginx.conf", "nginx -t takes it", WhatIfTest.server(TEN_A_SECOND), log, false, true)
                .shadowLine()).contains("empty on every line", "nothing to compare");
    }
}
