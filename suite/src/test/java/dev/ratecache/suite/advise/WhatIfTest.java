package dev.ratecache.suite.advise;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.accesslog.LoggedRequest;
import dev.ratecache.suite.advise.WhatIf.Outcome;
import dev.ratecache.suite.advise.WhatIf.Verdict;
import dev.ratecache.suite.advise.WhatIfFigures.Tally;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** advise --nginx-conf's what-if: the model's decision for each logged request under a config, and its figures. */
class WhatIfTest {
    /** 2026-11-20T10:00:00Z in epoch ms: every test's log starts there. */
    static final long T0 = Instant.parse("2026-11-20T10:00:00Z").toEpochMilli();

    /** A logged request that ended at {@code endMs} after T0, having taken {@code requestMs}. */
    static LoggedRequest request(long line, long endMs, long requestMs, String client, String uri, String limitStatus) {
        return new LoggedRequest(line, Instant.ofEpochMilli(T0 + endMs).atOffset(ZoneOffset.UTC), client, "GET", uri, 200,
                OptionalLong.of(3), OptionalDouble.of(requestMs / 1000.0), OptionalDouble.empty(), "", limitStatus);
    }

    /** Requests at the given ms after T0 (each taking none), lines numbered in order. */
    static List<LoggedRequest> at(String client, String uri, long... ms) {
        List<LoggedRequest> out = new ArrayList<>();
        for (long m : ms) {
            out.add(request(out.size() + 1, m, 0, client, uri, ""));
        }
        return out;
    }

    static List<LoggedRequest> numbered(List<LoggedRequest> requests) {
        List<LoggedRequest> out = new ArrayList<>();
        for (LoggedRequest r : requests) {
            out.add(new LoggedRequest(out.size() + 1, r.time(), r.client(), r.method(), r.uri(), r.status(), r.bytes(),
                    r.requestSeconds(), r.upstreamSeconds(), r.key(), r.limitStatus()));
        }
        return out;
    }

    static ChosenServer server(String http) throws Exception {
        return ChosenServer.of(ConfText.parse("http { " + http + " }"), null);
    }

    static List<Outcome> run(String http, List<LoggedRequest> log) throws Exception {
        return WhatIf.run(server(http).target(), log);
    }

    static List<Verdict> verdicts(List<Outcome> outcomes) {
        return outcomes.stream().map(Outcome::verdict).toList();
    }

    static final String API = "limit_req_zone $binary_remote_addr zone=per_client:10m rate=10r/s;"
            + " server { listen 80; location /api/ { limit_req zone=per_client burst=2 nodelay; } location / {} }";

    @Test
    void aClientPastItsBurstIsRejectedAndCountedPerKeyPathAndMinute() throws Exception {
        List<LoggedRequest> log = new ArrayList<>(at("203.0.113.1", "/api/items?page=1", 0, 0, 0, 0, 0, 0));
        log.addAll(at("198.51.100.2", "/api/items?page=2", 0));
        log.addAll(at("198.51.100.2", "/about", 0, 0, 0, 0));
        List<Outcome> outcomes = run(API, numbered(log));

        assertThat(verdicts(outcomes)).containsExactly(Verdict.PASSED, Verdict.PASSED, Verdict.PASSED, Verdict.REJECTED,
                Verdict.REJECTED, Verdict.REJECTED, Verdict.PASSED, Verdict.NOT_LIMITED, Verdict.NOT_LIMITED,
                Verdict.NOT_LIMITED, Verdict.NOT_LIMITED);
        WhatIfFigures f = WhatIfFigures.of(outcomes);
        assertThat(f.count(Verdict.REJECTED)).isEqualTo(3);
        assertThat(f.perKey()).first().isEqualTo(new Tally("203.0.113.1", "", 6, 3, 0, 0));
        assertThat(f.perPath()).extracting(Tally::name, Tally::detail, Tally::rejected)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("/api/items", "/api/", 3L));
        assertThat(f.perMinute()).extracting(Tally::name, Tally::requests).containsExactly(
                org.assertj.core.groups.Tuple.tuple("2026-11-20T10:00Z", 7L));
        // The client that was rejected, not the one that was only limited.
        assertThat(f.hardestHit()).extracting(Tally::name).containsExactly("203.0.113.1");
    }

    @Test
    void locationsSharingAZoneShareEachClientsStateButKeepTheirOwnBurst() throws Exception {
        String http = "limit_req_zone $binary_remote_addr zone=z:10m rate=1r/s;"
                + " server { listen 80; location /strict/ { limit_req zone=z nodelay; }"
                + " location /loose/ { limit_req zone=z burst=5 nodelay; } }";
        List<LoggedRequest> log = new ArrayList<>(at("203.0.113.1", "/loose/a", 0, 0));
        log.addAll(at("203.0.113.1", "/strict/a", 0));

        // /strict/ alone would pass a client's first request; the two /loose/ ones filled the same state.
        assertThat(verdicts(run(http, numbered(log)))).containsExactly(Verdict.PASSED, Verdict.PASSED, Verdict.REJECTED);
    }

    @Test
    void queueModeDelaysRequestsWithinTheBurstAndSaysForHowLong() throws Exception {
        String http = "limit_req_zone $binary_remote_addr zone=z:10m rate=10r/s; server { listen 80; limit_req zone=z burst=5; }";
        List<Outcome> outcomes = run(http, at("203.0.113.1", "/", 0, 0, 0));

        assertThat(verdicts(outcomes)).containsExactly(Verdict.PASSED, Verdict.DELAYED, Verdict.DELAYED);
        assertThat(outcomes).extracting(Outcome::delayMs).containsExactly(0L, 100L, 200L);
        assertThat(WhatIfFigures.of(outcomes).hardestHit()).first().extracting(Tally::delayed, Tally::longestDelayMs)
                .containsExactly(2L, 200L);
    }

    @Test
    void aKeyTheLogDoesNotCarryIsNotPredictedAndSaysWhy() throws Exception {
        String http = "limit_req_zone $http_x_api_key zone=keys:10m rate=1r/s; server { listen 80; limit_req zone=keys; }";
        List<Outcome> outcomes = run(http, at("203.0.113.1", "/", 0));

        assertThat(verdicts(outcomes)).containsExactly(Verdict.NOT_PREDICTED);
        assertThat(outcomes.get(0).why()).contains("X-Api-Key header", "the log does not carry");
        assertThat(WhatIfFigures.of(outcomes).notPredicted()).hasSize(1);
    }

    @Test
    void aGeoAndMapThatGiveAnEmptyKeyExemptTheirClients() throws Exception {
        String http = "geo $limited { default 1; 10.0.0.0/8 0; }"
                + " map $limited $limit_key { 0 \"\"; 1 $binary_remote_addr; }"
                + " limit_req_zone $limit_key zone=z:10m rate=1r/s; server { listen 80; limit_req zone=z; }";
        List<LoggedRequest> log = new ArrayList<>(at("10.1.2.3", "/", 0, 0));
        log.addAll(at("203.0.113.1", "/", 0, 0));

        assertThat(verdicts(run(http, numbered(log)))).containsExactly(Verdict.NOT_LIMITED, Verdict.NOT_LIMITED,
                Verdict.PASSED, Verdict.REJECTED);
    }

    @Test
    void anArgumentKeyIsReadFromTheLoggedQuery() throws Exception {
        String http = "limit_req_zone $arg_token zone=z:10m rate=1r/s; server { listen 80; limit_req zone=z; }";
        List<LoggedRequest> log = List.of(request(1, 0, 0, "203.0.113.1", "/?token=a", ""),
                request(2, 0, 0, "203.0.113.2", "/?TOKEN=a", ""), request(3, 0, 0, "203.0.113.1", "/?token=b", ""),
                request(4, 0, 0, "203.0.113.1", "/", ""));

        List<Outcome> outcomes = run(http, log);
        assertThat(verdicts(outcomes)).containsExactly(Verdict.PASSED, Verdict.REJECTED, Verdict.PASSED, Verdict.NOT_LIMITED);
        assertThat(outcomes).extracting(Outcome::key).containsExactly("a", "a", "b", "");
    }

    @Test
    void eachRequestMeetsTheLimitWhenItStartedItsLoggedEndLessItsRequestTime() throws Exception {
        String http = "limit_req_zone $binary_remote_addr zone=z:10m rate=1r/s; server { listen 80; limit_req zone=z; }";
        // Line 1 ended last but started first (900 ms upstream): it is the one that passed.
        List<LoggedRequest> log = List.of(request(1, 1000, 900, "203.0.113.1", "/", ""),
                request(2, 500, 0, "203.0.113.1", "/", ""));

        List<Outcome> outcomes = run(http, log);
        assertThat(outcomes).extracting(o -> o.request().line(), Outcome::atMs, Outcome::verdict).containsExactly(
                org.assertj.core.groups.Tuple.tuple(1L, T0 + 100, Verdict.PASSED),
                org.assertj.core.groups.Tuple.tuple(2L, T0 + 500, Verdict.REJECTED));
    }

    @Test
    void aLocationAnsweredByReturnIsNotLimitedThoughALimitIsInForceThere() throws Exception {
        String http = "limit_req_zone $binary_remote_addr zone=z:10m rate=1r/s;"
                + " server { listen 80; limit_req zone=z; location = /health { return 200; } }";
        List<Outcome> outcomes = run(http, at("203.0.113.1", "/health", 0, 0));

        assertThat(verdicts(outcomes)).containsExactly(Verdict.NOT_LIMITED, Verdict.NOT_LIMITED);
        assertThat(outcomes.get(0).why()).contains("return");
    }

    @Test
    void aPathNoLocationMatchesGetsTheServersOwnLimits() throws Exception {
        String http = "limit_req_zone $binary_remote_addr zone=z:10m rate=1r/s;"
                + " server { listen 80; limit_req zone=z; location /free/ { limit_req_status 429; } location /own/ {} }";
        // /free/ inherits the server's limit_req; so does a path no location matches.
        assertThat(verdicts(run(http, at("203.0.113.1", "/elsewhere", 0, 0)))).containsExactly(Verdict.PASSED, Verdict.REJECTED);
    }

    @Test
    void twoLimitsInOneLocationTheStrictestDecides() throws Exception {
        String http = "limit_req_zone $binary_remote_addr zone=per_client:10m rate=10r/s;"
                + " limit_req_zone all zone=everyone:1m rate=1r/s;"
                + " server { listen 80; limit_req zone=per_client burst=10 nodelay; limit_req zone=everyone nodelay; }";
        List<LoggedRequest> log = new ArrayList<>(at("203.0.113.1", "/", 0));
        log.addAll(at("203.0.113.2", "/", 0));
        List<Outcome> outcomes = run(http, numbered(log));

        assertThat(verdicts(outcomes)).containsExactly(Verdict.PASSED, Verdict.REJECTED);
        assertThat(outcomes.get(1).zone()).isEqualTo("everyone");
    }

    @Test
    void theDefaultServerOfTheFirstListenIsChosenUnlessOneIsNamed() throws Exception {
        String http = "limit_req_zone $binary_remote_addr zone=z:10m rate=1r/s;"
                + " server { listen 80; server_name www.example.com; }"
                + " server { listen 80 default_server; server_name api.example.com; limit_req zone=z; }"
                + " server { listen 8080; server_name *.example.org; }";
        List<dev.ratecache.suite.explain.Directive> tree = ConfText.parse("http { " + http + " }");

        assertThat(ChosenServer.of(tree, null).name()).isEqualTo("api.example.com");
        assertThat(ChosenServer.of(tree, "www.example.com").name()).isEqualTo("www.example.com");
        assertThat(ChosenServer.of(tree, "shop.example.org").name()).isEqualTo("*.example.org");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> ChosenServer.of(tree, "nowhere.test"))
                .hasMessage("--server-name nowhere.test: no server of the config is named so (its names: www.example.com,"
                        + " api.example.com, *.example.org)");
    }
}
