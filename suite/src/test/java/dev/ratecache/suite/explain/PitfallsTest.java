package dev.ratecache.suite.explain;

import static dev.ratecache.suite.explain.Conf.b;
import static dev.ratecache.suite.explain.Conf.d;
import static dev.ratecache.suite.explain.Conf.http;
import static dev.ratecache.suite.explain.Conf.spec;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Each pitfall explain names, found where it is and not where it is not. */
class PitfallsTest {

    private static List<Finding> pitfalls(List<Directive> tree, Pitfalls.Context context) {
        return Pitfalls.of(spec(tree), context);
    }

    private static List<Finding> pitfalls(List<Directive> tree) {
        return pitfalls(tree, Pitfalls.Context.NONE);
    }

    private static List<String> kinds(List<Finding> found) {
        return found.stream().map(Finding::kind).toList();
    }

    private static List<Directive> limited(String zone, String limitReq, Directive... server) {
        Directive[] inServer = new Directive[server.length + 1];
        System.arraycopy(server, 0, inServer, 0, server.length);
        inServer[server.length] = b("location /", d(limitReq), d("proxy_pass http://app"));
        return http(d(zone), b("server", inServer));
    }

    @Test
    void sixThousandPerMinuteWithNoBurstRefusesASecondRequestWithinTenMilliseconds() {
        List<Finding> found = pitfalls(limited("limit_req_zone $binary_remote_addr zone=m:10m rate=6000r/m",
                "limit_req zone=m"));

        assertThat(found).filteredOn(f -> f.kind().equals("rate-granularity")).singleElement()
                .satisfies(f -> assertThat(f.what()).contains("one every 10 ms", "a second request within 10 ms of the"
                        + " first is refused"));
    }

    @Test
    void aBurstWithANodelayAndAnRsRateHasNoGranularityPitfall() {
        assertThat(kinds(pitfalls(limited("limit_req_zone $binary_remote_addr zone=a:10m rate=10r/s",
                "limit_req zone=a burst=20 nodelay", d("limit_req_status 429"))))).isEmpty();
    }

    @Test
    void aBurstWithoutNodelayQueuesForBurstOverRate() {
        List<Finding> found = pitfalls(limited("limit_req_zone $binary_remote_addr zone=a:10m rate=10r/s",
                "limit_req zone=a burst=20"));

        assertThat(found).filteredOn(f -> f.kind().equals("queue")).singleElement()
                .satisfies(f -> assertThat(f.what()).contains("the last of a burst waits 2 s"));
    }

    @Test
    void theDefault503IsAPitfallAnd429IsNot() {
        String zone = "limit_req_zone $binary_remote_addr zone=a:10m rate=10r/s";
        assertThat(kinds(pitfalls(limited(zone, "limit_req zone=a burst=5 nodelay")))).contains("status-503");
        assertThat(kinds(pitfalls(limited(zone, "limit_req zone=a burst=5 nodelay", d("limit_req_status 429")))))
                .doesNotContain("status-503");
    }

    @Test
    void anAddressKeyWhileForwardingXForwardedForWithoutRealIpPutsEveryoneBehindTheProxyInOneBucket() {
        String zone = "limit_req_zone $binary_remote_addr zone=a:10m rate=10r/s";
        Directive xff = d("proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for");

        assertThat(kinds(pitfalls(limited(zone, "limit_req zone=a burst=5 nodelay", xff)))).contains("real-ip");
        assertThat(kinds(pitfalls(limited(zone, "limit_req zone=a burst=5 nodelay", xff, d("set_real_ip_from 10.0.0.0/8"),
                d("real_ip_header X-Forwarded-For"))))).doesNotContain("real-ip");
    }

    @Test
    void behindAProxyTheUserNamesTheFixNamesIt() {
        List<Finding> found = pitfalls(limited("limit_req_zone $binary_remote_addr zone=a:10m rate=10r/s",
                "limit_req zone=a burst=5 nodelay"), new Pitfalls.Context("10.0.0.0/8", 1));

        assertThat(found).filteredOn(f -> f.kind().equals("real-ip")).singleElement()
                .satisfies(f -> assertThat(f.fix()).startsWith("set_real_ip_from 10.0.0.0/8;"));
    }

    @Test
    void replicasMultiplyTheLimitAClientGets() {
        List<Finding> found = pitfalls(limited("limit_req_zone $binary_remote_addr zone=a:10m rate=10r/s",
                "limit_req zone=a burst=5 nodelay"), new Pitfalls.Context(null, 3));

        assertThat(found).filteredOn(f -> f.kind().equals("replicas")).singleElement()
                .satisfies(f -> assertThat(f.what()).contains("3 x 10 = 30 r/s and 18 requests at once"));
    }

    @Test
    void aSmallZoneSaysHowManyAddressesItHolds() {
        List<Finding> found = pitfalls(limited("limit_req_zone $binary_remote_addr zone=a:64k rate=10r/s",
                "limit_req zone=a burst=5 nodelay"));

        assertThat(found).filteredOn(f -> f.kind().equals("zone-size")).singleElement()
                .satisfies(f -> assertThat(f.what()).contains("holds about 447 states", "128 bytes a state"));
    }

    @Test
    void aKeyTheClientChoosesIsAPitfall() {
        assertThat(kinds(pitfalls(limited("limit_req_zone $http_x_api_key zone=k:10m rate=10r/s",
                "limit_req zone=k burst=5 nodelay")))).contains("zone-keys");
    }

    @Test
    void aDryRunLeftOnIsAPitfall() {
        assertThat(kinds(pitfalls(limited("limit_req_zone $binary_remote_addr zone=a:10m rate=10r/s",
                "limit_req zone=a burst=5 nodelay", d("limit_req_dry_run on"))))).contains("dry-run");
    }

    private static List<Directive> cached(Directive... location) {
        Directive[] all = new Directive[location.length + 2];
        all[0] = d("proxy_cache c");
        all[1] = d("proxy_pass http://app");
        System.arraycopy(location, 0, all, 2, location.length);
        return http(d("proxy_cache_path /tmp/c keys_zone=c:10m"), b("server", b("location /", all)));
    }

    @Test
    void aCacheWithNoLockAndNoStaleUpdatingStampedes() {
        assertThat(kinds(pitfalls(cached()))).contains("cache-lock", "cache-stale");
    }

    @Test
    void lockWithStaleUpdatingIsTheStuckUpdatingCombination() {
        List<Finding> found = pitfalls(cached(d("proxy_cache_lock on"), d("proxy_cache_use_stale updating error"),
                d("proxy_cache_background_update on")));

        assertThat(kinds(found)).contains("cache-updating").doesNotContain("cache-lock", "cache-stale");
        assertThat(found).filteredOn(f -> f.kind().equals("cache-updating")).singleElement()
                .satisfies(f -> assertThat(f.what()).contains("nginx/nginx#342"));
    }

    @Test
    void aCacheKeyWithoutAuthorizationOrCookieServesOneUsersAnswerToAnother() {
        assertThat(pitfalls(cached())).filteredOn(f -> f.kind().equals("cache-private")).singleElement()
                .satisfies(f -> assertThat(f.fix()).isEqualTo("proxy_cache_bypass $http_authorization $http_cookie;"
                        + " proxy_no_cache $http_authorization $http_cookie;"));
        assertThat(kinds(pitfalls(cached(d("proxy_cache_bypass $http_authorization $http_cookie")))))
                .doesNotContain("cache-private");
    }

    @Test
    void ignoringSetCookieStoresSessions() {
        assertThat(kinds(pitfalls(cached(d("proxy_ignore_headers Set-Cookie"))))).contains("cache-set-cookie");
    }
}
