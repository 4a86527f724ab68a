package dev.ratecache.suite.explain;

import static dev.ratecache.suite.explain.Conf.b;
import static dev.ratecache.suite.explain.Conf.d;
import static dev.ratecache.suite.explain.Conf.http;
import static dev.ratecache.suite.explain.Conf.spec;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** What explain says of each place: the model's figures for one client, in words. */
class ExplanationTest {

    private static List<String> lines(List<Directive> tree) {
        return Explanation.of("t.conf", "checked", spec(tree), Pitfalls.Context.NONE).places().get(0).lines();
    }

    private static List<Directive> api(String limitReq, Directive... more) {
        Directive[] all = new Directive[more.length + 2];
        all[0] = d("limit_req_zone $binary_remote_addr zone=api:10m rate=10r/s");
        System.arraycopy(more, 0, all, 1, more.length);
        all[more.length + 1] = b("server", b("location /api/", d(limitReq), d("proxy_pass http://app")));
        return http(all);
    }

    @Test
    void aFloodAtTwiceTheRateIsAnsweredInFullUntilTheBurstIsSpentThenAtTheRate() {
        assertThat(lines(api("limit_req zone=api burst=20 nodelay"))).contains("2x: under 10 r/s with burst 20 nodelay,"
                + " a client sending 20 r/s to /api/ is answered in full for about 2.1 s, until the burst is spent, then"
                + " 10 times a second; the other 10 a second get 503");
    }

    @Test
    void aSteadyClientAtTheRateIsAnsweredInFull() {
        assertThat(lines(api("limit_req zone=api"))).contains(
                "steady: a client sending 10 r/s, evenly spaced, to /api/ is answered in full");
    }

    @Test
    void aBurstOfBurstPlusOneIsAnsweredAndOneMoreIsRefused() {
        assertThat(lines(api("limit_req zone=api burst=20 nodelay"))).contains(
                "burst: 22 requests at once: 21 answered at once, 1 gets 503");
    }

    @Test
    void aBurstWithoutNodelayIsAnsweredFromTheQueueTheLastAfterBurstOverRate() {
        assertThat(lines(api("limit_req zone=api burst=20"))).contains(
                "burst: 22 requests at once: 21 answered (the last after 2 s in the queue), 1 gets 503");
    }

    @Test
    void theStatusTheFloodGetsIsLimitReqStatus() {
        assertThat(lines(api("limit_req zone=api burst=20 nodelay", d("limit_req_status 429"))))
                .anySatisfy(l -> assertThat(l).startsWith("10x:").endsWith("the other 90 a second get 429"));
    }

    @Test
    void aDryRunSaysWhatWouldBeRefusedAndThatNginxAnswersIt() {
        assertThat(lines(api("limit_req zone=api burst=20 nodelay", d("limit_req_dry_run on"))))
                .anySatisfy(l -> assertThat(l).startsWith("2x:").endsWith("would get 503 (dry run: nginx answers them)"))
                .contains("burst: 22 requests at once: 21 answered at once, 1 would get 503 (dry run: nginx answers them)");
    }

    @Test
    void twoLimitsInOneLocationTheStrictestDecides() {
        List<Directive> tree = http(d("limit_req_zone $binary_remote_addr zone=fast:10m rate=100r/s"),
                d("limit_req_zone $binary_remote_addr zone=slow:10m rate=5r/s"),
                b("server", b("location /", d("limit_req zone=fast burst=50 nodelay"), d("limit_req zone=slow"))));

        assertThat(lines(tree)).contains("all 2 limits decide each request: the strictest refuses, and a request"
                + " refused by one is counted by none")
                .anySatisfy(l -> assertThat(l).startsWith("2x: under its strictest, 5 r/s with no burst, a client sending"
                        + " 10 r/s to / is answered 5 times a second; the other 5 a second get 503"));
    }

    @Test
    void aRatePerMinuteIsSaidPerMinute() {
        List<Directive> tree = http(d("limit_req_zone $binary_remote_addr zone=m:10m rate=30r/m"),
                b("server", b("location /", d("limit_req zone=m"))));

        assertThat(lines(tree)).anySatisfy(l -> assertThat(l).startsWith("2x: under 30 r/m with no burst, a client"
                + " sending 60 r/m to / is answered 30 times a minute; the other 30 a minute get 503"));
    }

    @Test
    void aKeyTheModelCannotEvaluateGetsNoFigures() {
        List<Directive> tree = http(d("limit_req_zone $request_uri zone=u:10m rate=5r/s"),
                b("server", b("location /", d("limit_req zone=u"))));

        assertThat(lines(tree)).contains("figures not predicted: the key cannot be evaluated (see below)")
                .noneSatisfy(l -> assertThat(l).startsWith("2x:"));
    }

    @Test
    void aReturnAnswersBeforeLimitReqSoTheLocationIsNeitherLimitedNorCounted() {
        List<Directive> tree = http(d("limit_req_zone $binary_remote_addr zone=a:10m rate=10r/s"),
                b("server", d("limit_req zone=a"), b("location /gone", d("return 410"))));

        assertThat(lines(tree)).anySatisfy(l -> assertThat(l).startsWith("the return (t.conf:").endsWith(") answers in"
                + " the rewrite phase, before limit_req runs: no request here is limited or counted"))
                .noneSatisfy(l -> assertThat(l).startsWith("2x:"));
    }

    @Test
    void aCacheWhereNothingIsPassedUpstreamIsNotSpokenOf() {
        List<Directive> tree = http(d("proxy_cache_path /tmp/c keys_zone=c:10m"),
                b("server", d("proxy_cache c"), b("location /static/", d("root /srv"))));

        assertThat(lines(tree)).contains("no limit and no cache: every request goes through as it comes")
                .noneSatisfy(l -> assertThat(l).startsWith("cache "));
    }

    @Test
    void aPlaceWithNoLimitAndNoCacheSaysSo() {
        assertThat(lines(http(b("server", b("location /", d("proxy_pass http://app"))))))
                .contains("no limit and no cache: every request goes through as it comes");
    }
}
