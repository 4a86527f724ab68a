package dev.ratecache.suite.explain;

import static dev.ratecache.suite.explain.Conf.b;
import static dev.ratecache.suite.explain.Conf.d;
import static dev.ratecache.suite.explain.Conf.http;
import static dev.ratecache.suite.explain.Conf.place;
import static dev.ratecache.suite.explain.Conf.spec;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.model.Rate;
import dev.ratecache.suite.explain.ConfigSpec.Mode;
import dev.ratecache.suite.explain.ConfigSpec.Place;
import org.junit.jupiter.api.Test;

/** The spec read from a parsed config: zones, and what is in force at each place by nginx's merge rules. */
class ExtractorTest {

    private static final Directive ZONE_A = d("limit_req_zone $binary_remote_addr zone=a:10m rate=10r/s");
    private static final Directive ZONE_B = d("limit_req_zone $binary_remote_addr zone=b:1m rate=1r/s");

    @Test
    void aLocationWithALimitReqOfItsOwnInheritsNoneOfTheServers() {
        ConfigSpec spec = spec(http(ZONE_A, ZONE_B, b("server", d("limit_req zone=a burst=20 nodelay"),
                b("location /api/", d("limit_req zone=b")), b("location /"))));

        assertThat(place(spec, "/api/").limits()).extracting(l -> l.zone().name()).containsExactly("b");
        assertThat(place(spec, "/").limits()).extracting(l -> l.zone().name()).containsExactly("a");
    }

    @Test
    void aServerWithoutLimitReqInheritsTheHttpLevels() {
        ConfigSpec spec = spec(http(ZONE_A, d("limit_req zone=a burst=5"), b("server", b("location /"))));

        assertThat(place(spec, "/").limits()).extracting(l -> l.zone().name()).containsExactly("a");
    }

    @Test
    void limitConnIsReadWithItsZoneAndStatus() {
        ConfigSpec spec = spec(http(d("limit_conn_zone $binary_remote_addr zone=c:10m"),
                b("server", d("limit_conn_status 429"), b("location /", d("limit_conn c 2")))));

        Place place = place(spec, "/");
        assertThat(place.conns()).singleElement().satisfies(c -> assertThat(c.max()).isEqualTo(2));
        assertThat(place.connStatus()).isEqualTo(429);
    }

    @Test
    void aNestedLocationWithoutLimitReqInheritsItsParentLocations() {
        ConfigSpec spec = spec(http(ZONE_A, ZONE_B, b("server", d("limit_req zone=a"),
                b("location /api/", d("limit_req zone=b burst=5"), b("location /api/v2/")))));

        assertThat(place(spec, "/api/v2/").limits()).extracting(l -> l.zone().name()).containsExactly("b");
    }

    @Test
    void burstNodelayAndDelayAreReadAsNginxStoresThem() {
        ConfigSpec spec = spec(http(ZONE_A, b("server", b("location /n", d("limit_req zone=a burst=20 nodelay")),
                b("location /d", d("limit_req zone=a burst=20 delay=8")), b("location /q", d("limit_req zone=a")))));

        assertThat(place(spec, "/n").limits().get(0).mode()).isEqualTo(Mode.NODELAY);
        assertThat(place(spec, "/d").limits().get(0).spec(503).delayMilli()).isEqualTo(8000);
        assertThat(place(spec, "/q").limits().get(0).spec(503).burstMilli()).isZero();
        assertThat(place(spec, "/q").limits().get(0).mode()).isEqualTo(Mode.QUEUE);
    }

    @Test
    void aRatePerMinuteIsTruncatedToThousandthsAsNginxDoes() {
        ConfigSpec spec = spec(http(d("limit_req_zone $binary_remote_addr zone=m:1m rate=1r/m")));

        assertThat(spec.zones().get(0).rate()).isEqualTo(new Rate(16));
    }

    @Test
    void limitReqStatusIs503UnlessSetAndIsInherited() {
        ConfigSpec spec = spec(http(ZONE_A, b("server", d("limit_req zone=a"), b("location /"),
                b("location /x", d("limit_req_status 429")))));

        assertThat(place(spec, "/").status()).isEqualTo(503);
        assertThat(place(spec, "/").statusWhere()).isNull();
        assertThat(place(spec, "/x").status()).isEqualTo(429);
    }

    @Test
    void proxyCacheValidWithOnlyATimeCaches200And301And302() {
        ConfigSpec spec = spec(http(d("proxy_cache_path /tmp/c keys_zone=c:10m inactive=1h"),
                b("server", d("proxy_cache c"), d("proxy_cache_valid 10m"), b("location /", d("proxy_pass http://u")))));

        ConfigSpec.CacheSettings cache = place(spec, "/").cache();
        assertThat(cache.valid()).singleElement().satisfies(v -> {
            assertThat(v.codes()).containsExactly("200", "301", "302");
            assertThat(v.ms()).isEqualTo(600_000);
        });
        assertThat(cache.zone().inactiveMs()).isEqualTo(3_600_000);
        assertThat(cache.model().lock()).isFalse();
    }

    @Test
    void aLocationWithProxyCacheValidOfItsOwnInheritsNoneOfTheServers() {
        ConfigSpec spec = spec(http(d("proxy_cache_path /tmp/c keys_zone=c:10m"), b("server", d("proxy_cache c"),
                d("proxy_cache_valid 200 10m"), d("proxy_cache_valid 404 1m"), b("location /", d("proxy_cache_valid any 5s")))));

        assertThat(place(spec, "/").cache().valid()).singleElement().satisfies(v -> assertThat(v.codes()).containsExactly("any"));
    }

    @Test
    void proxyCacheOffAtALocationTurnsTheServersCacheOff() {
        ConfigSpec spec = spec(http(d("proxy_cache_path /tmp/c keys_zone=c:10m"), b("server", d("proxy_cache c"),
                b("location /live", d("proxy_cache off")))));

        assertThat(place(spec, "/live").cache()).isNull();
    }

    @Test
    void aMapGivingAnEmptyValueExemptsThoseRequests() {
        ConfigSpec spec = spec(http(b("map $http_x_api_key $limit_key", d("default $http_x_api_key"), d("'' ''")),
                d("limit_req_zone $limit_key zone=k:10m rate=5r/s")));

        KeyExpr key = spec.zones().get(0).key();
        assertThat(key.evaluable()).isTrue();
        assertThat(key.exemptions()).containsExactly("the X-Api-Key header ($http_x_api_key) is empty");
    }

    @Test
    void aGeoOfTheAddressMappedToAnEmptyKeyExemptsItsNetworks() {
        ConfigSpec spec = spec(http(b("geo $limited", d("default 1"), d("10.0.0.0/8 0")),
                b("map $limited $limit_key", d("0 ''"), d("1 $binary_remote_addr")),
                d("limit_req_zone $limit_key zone=k:10m rate=5r/s")));

        KeyExpr key = spec.zones().get(0).key();
        assertThat(key.evaluable()).isTrue();
        assertThat(key.dependsOnAddress()).isTrue();
        // The map has no default, so a value of $limited other than 0 and 1 would be empty too (none is).
        assertThat(key.exemptions()).containsExactly("the client's address ($remote_addr) in 10.0.0.0/8",
                "every request no other line of $limit_key matches (its default is empty)");
    }

    @Test
    void aKeyOfAVariableTheModelCannotEvaluateIsNotPredicted() {
        ConfigSpec spec = spec(http(d("limit_req_zone $request_uri zone=u:10m rate=5r/s"),
                b("server", b("location /", d("limit_req zone=u")))));

        Place place = place(spec, "/");
        assertThat(place.notPredicted()).singleElement().satisfies(n -> assertThat(n.reason()).contains("$request_uri"));
    }

    @Test
    void luaAndNjsDirectivesAreNamedAsNotPredicted() {
        ConfigSpec spec = spec(http(d("js_import main.js"), b("server", b("location /", d("access_by_lua_block"),
                d("js_content main.hello")))));

        assertThat(spec.notPredicted()).extracting(ConfigSpec.NotPredicted::directive)
                .containsExactly("access_by_lua_block", "js_content main.hello");
    }

    @Test
    void aLimitInsideAnIfIsNamedAsNotPredicted() {
        ConfigSpec spec = spec(http(ZONE_A, b("server", b("location /", b("if $http_x", d("limit_req zone=a"))))));

        assertThat(place(spec, "/").notPredicted()).extracting(ConfigSpec.NotPredicted::reason)
                .anySatisfy(r -> assertThat(r).startsWith("inside if"));
    }

    @Test
    void aServerWithNoLocationIsOnePlaceForEveryPath() {
        ConfigSpec spec = spec(http(ZONE_A, b("server", d("server_name api.example.com"), d("limit_req zone=a"))));

        assertThat(place(spec, "(every path)").server()).isEqualTo("server api.example.com");
    }
}
