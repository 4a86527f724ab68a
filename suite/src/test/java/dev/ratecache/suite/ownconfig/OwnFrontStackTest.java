package dev.ratecache.suite.ownconfig;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ratecache.suite.Http;
import dev.ratecache.suite.explain.ConfigRefused;
import dev.ratecache.suite.explain.NginxCheck;
import dev.ratecache.suite.origin.OriginServer;
import dev.ratecache.suite.stack.SharedOrigin;
import dev.ratecache.suite.stack.Stack;
import dev.ratecache.suite.stack.StackPorts;
import dev.ratecache.suite.stack.Stacks;
import dev.ratecache.suite.switches.StackSwitches;
import dev.ratecache.testkit.StackTest;
import dev.ratecache.testkit.TestDirs;
import java.io.IOException;
import java.io.InputStream;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A user's own nginx config as the front tier (--nginx-conf): a production config, written for its
 * own machine, read, rewired in a copy and run in front of the suite's tiers; its limit and cache
 * answer on the wire, and what cannot run here is refused in one line naming the directive.
 */
@StackTest
@ExtendWith(SharedOrigin.class)
class OwnFrontStackTest {
    private static final String DIR = "/dev/ratecache/suite/ownconfig/";

    static Path config(String name) throws IOException {
        Path target = TestDirs.fresh(OwnFrontStackTest.class, "configs").resolve(name);
        try (InputStream in = OwnFrontStackTest.class.getResourceAsStream(DIR + name)) {
            assertThat(in).as(name).isNotNull();
            Files.write(target, in.readAllBytes());
        }
        return target;
    }

    private static OwnFront read(String name, String... paths) throws Exception {
        return OwnFrontReader.read(config(name), null, List.of(paths), TestDirs.fresh(OwnFrontStackTest.class, "read-" + name));
    }

    private static List<Integer> statuses(Stack stack, int n) throws Exception {
        List<Integer> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(Http.get(stack.frontUri(), "/hare?n=" + i).statusCode());
        }
        return out;
    }

    @Test
    void aProductionConfigIsReadAsThisMachineCanCheckIt() throws Exception {
        OwnFront own = read("production.conf");

        assertThat(own.server().label()).contains("api.example.com");
        assertThat(own.planPaths()).extracting(OwnFront.PlanPath::path).containsExactly("/hare");
        assertThat(own.limits()).isTrue();
        assertThat(own.caches()).isTrue();
    }

    @Test
    void theUsersLimitRefusesPastItsBurstWithItsOwnStatus(OriginServer origin) throws Exception {
        Path dir = TestDirs.fresh(getClass(), "limit");
        try (Stack stack = Stacks.around(origin, dir, new StackSwitches().ownFront(read("production.conf")).cache(false))) {
            // 1r/m with burst=2 nodelay: three pass at once, and no token comes back for a minute.
            assertThat(statuses(stack, 5)).containsExactly(200, 200, 200, 429, 429);
            String rewired = Files.readString(dir.resolve("nginx/front").resolve(OwnFrontConfig.CHANGES));
            assertThat(rewired).contains("production.conf:18: listen 80 default_server -> listen 127.0.0.1:" + stack.ports().front())
                    .contains("production.conf:13: server 10.0.0.5:8080 -> server 127.0.0.1:" + stack.ports().back())
                    .contains("production.conf:3: user www-data left out")
                    .contains("production.conf:8: access_log /var/log/nginx/access.log -> access_log logs/your-access.log")
                    .contains("admin.example.com").contains("proxy_cache apicache left out");
        }
    }

    @Test
    void theUsersCacheAnswersARepeatWithoutTheOrigin(OriginServer origin) throws Exception {
        try (Stack stack = Stacks.around(origin, TestDirs.fresh(getClass(), "cache"),
                new StackSwitches().ownFront(read("production.conf")))) {
            long before = origin.counters().requests("hare");
            HttpResponse<String> first = Http.get(stack.frontUri(), "/hare?cached");
            HttpResponse<String> second = Http.get(stack.frontUri(), "/hare?cached");

            assertThat(first.statusCode()).isEqualTo(200);
            assertThat(second.body()).isEqualTo(first.body());
            assertThat(origin.counters().requests("hare") - before).isEqualTo(1);
            // The suite's JSON log beside the user's: the report's counts come from it.
            stack.close();
            assertThat(stack.frontEvents()).extracting(e -> e.cache().name()).contains("MISS", "HIT");
        }
    }

    @Test
    void aCellWithTheFrontLimitOffRunsTheConfigWithoutItsLimitReq(OriginServer origin) throws Exception {
        Path dir = TestDirs.fresh(getClass(), "no-limit");
        try (Stack stack = Stacks.around(origin, dir,
                new StackSwitches().ownFront(read("production.conf")).frontLimit(false).cache(false))) {
            assertThat(statuses(stack, 5)).containsOnly(200);
            assertThat(Files.readString(dir.resolve("nginx/front").resolve(OwnFrontConfig.CHANGES)))
                    .contains("limit_req zone=api burst=2 nodelay left out: this cell runs without the config's limits");
        }
    }

    @Test
    void everyCopyPassesNginxT() throws Exception {
        for (String name : List.of("production.conf", "api.conf", "plain.conf")) {
            OwnFront own = read(name);
            for (boolean on : new boolean[] {true, false}) {
                Path prefix = TestDirs.fresh(getClass(), "copy-" + name + "-" + on);
                Path conf = own.write(new StackSwitches().ownFront(own).frontLimit(on).cache(on).spec(StackPorts.free()),
                        prefix);
                assertThat(NginxCheck.refusal(conf, prefix)).as(name + " " + Files.readString(conf)).isEmpty();
            }
        }
    }

    @Test
    void theServerTheUserNamesIsTheOneThatRuns() throws Exception {
        OwnFront own = OwnFrontReader.read(config("production.conf"), "admin.example.com", List.of(),
                TestDirs.fresh(getClass(), "named"));
        Path prefix = TestDirs.fresh(getClass(), "named-copy");
        own.write(new StackSwitches().ownFront(own).spec(StackPorts.free()), prefix);

        assertThat(own.planPaths()).extracting(OwnFront.PlanPath::path).containsExactly("/");
        assertThat(Files.readString(prefix.resolve(OwnFrontConfig.CHANGES)))
                .contains("production.conf:34: proxy_pass http://192.168.1.10:3000 -> proxy_pass http://127.0.0.1:")
                .contains("production.conf:17: server api.example.com { ... } left out");
    }

    @Test
    void aDefaultServerThatOnlyRedirectsGivesWayToTheFirstThatProxiesAndTheChangesSayWhy() throws Exception {
        OwnFront own = read("redirect-first.conf");
        Path prefix = TestDirs.fresh(getClass(), "redirect-first-copy");
        own.write(new StackSwitches().ownFront(own).spec(StackPorts.free()), prefix);

        assertThat(own.tls()).isTrue();
        assertThat(own.planPaths()).extracting(OwnFront.PlanPath::path).containsExactly("/login", "/");
        assertThat(Files.readString(prefix.resolve(OwnFrontConfig.CHANGES)))
                .contains("redirect-first.conf:13: server localhost { ... } left out: the run sends to server localhost"
                        + " (listen 443) at redirect-first.conf:19 alone (the first server that passes requests upstream,"
                        + " since the default server of the config's first listen (server localhost (listen 80) at"
                        + " redirect-first.conf:13) passes none; choose another with --server-name)");
    }

    @Test
    void aServerOfTlsAloneRunsWithTheThrowawayCaInPlaceOfCertificatesNotHere(OriginServer origin) throws Exception {
        OwnFront own = read("tls.conf");
        assertThat(own.tls()).isTrue();
        Path dir = TestDirs.fresh(getClass(), "tls");
        try (Stack stack = Stacks.around(origin, dir, new StackSwitches().ownFront(own).tls(true))) {
            assertThat(stack.frontUri().getScheme()).isEqualTo("https");
            assertThat(Http.get(stack.frontUri(), "/hare").statusCode()).isEqualTo(200);
            assertThat(Files.readString(dir.resolve("nginx/front").resolve(OwnFrontConfig.CHANGES)))
                    .contains("tls.conf:7: ssl_certificate /etc/letsencrypt/live/secure.example.com/fullchain.pem -> ssl_certificate ")
                    .contains("(not here: the throwaway CA's)")
                    .contains("tls.conf:9: ssl_dhparam /etc/letsencrypt/ssl-dhparams.pem left out: the file is not here");
        }
    }

    @Test
    void theOriginIsToldThePathTheConfigPassesUpstream() throws Exception {
        OwnFront own = read("uri-part.conf");

        assertThat(own.paths()).extracting(p -> p.path() + " -> " + p.originPath())
                .containsExactly("/v1/ -> /api/v1/", "/ws -> /socket", "/plain/ -> /plain/");
    }

    @Test
    void aPathPassedToFastCgiIsRefusedNamingItsLine() {
        assertThatThrownBy(() -> read("fastcgi.conf")).isInstanceOf(ConfigRefused.class)
                .hasMessageContaining("fastcgi.conf:5: fastcgi_pass unix:/run/php/php-fpm.sock")
                .hasMessageContaining("speaks HTTP only");
    }

    @Test
    void anAddressOnlyAResolverKnowsIsRefusedNamingItsLine() {
        assertThatThrownBy(() -> read("resolver-only.conf")).isInstanceOf(ConfigRefused.class)
                .hasMessageContaining("resolver-only.conf:8: proxy_pass http://$backend:8080");
    }

    @Test
    void aPathTheConfigAnswersItselfIsRefused() {
        assertThatThrownBy(() -> read("production.conf", "/health")).isInstanceOf(ConfigRefused.class)
                .hasMessageContaining("--path /health").hasMessageContaining("answers it itself");
    }
}
