package dev.ratecache.suite.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ratecache.proc.Ports;
import dev.ratecache.suite.advise.AdviceWriter;
import dev.ratecache.suite.nginx.NginxServer;
import dev.ratecache.testkit.StackTest;
import dev.ratecache.testkit.TestDirs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The limits explain and advise extract from a user's config, against nginx running that config:
 * each config runs in a real nginx that logs its own {@code $limit_req_status}, crafted bursts come
 * from several 127.x addresses, and {@code advise LOG --nginx-conf CONF} decides every logged request
 * with the model built from the extracted spec. Every decision must be nginx's (the clocks' 2 ms
 * allowed, as in NginxComparison). One config per rule the extraction must get right: nested
 * limits (a location with its own limit_req inherits none), a rate per minute, delay=N, a dry run
 * with two limits in one location, and a key from the request with a map exemption.
 *
 * <p>The bursts keep off the boundaries as AdviseShadowStackTest's do: six requests back to back
 * against bursts of 2 to 5, rounds a second apart.
 */
@StackTest
class ExtractedLimitsAgainstNginxTest {
    static final int ROUNDS = 3;
    static final int BURST_SENT = 6;
    static final List<String> CLIENTS = List.of("127.0.0.2", "127.0.0.3");

    private final CommandRun cli = new CommandRun();

    /**
     * @param http     the http block's limits and server, with %d for the port
     * @param paths    the paths each client's bursts go to, in turn
     * @param rejected whether nginx must reject some: not with delay=N, where each delayed request
     *                 of a client that waits for its answer drains the bucket for the next
     * @param delayed  whether nginx must delay some
     */
    record Case(String name, String http, List<String> paths, boolean rejected, boolean delayed) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Arguments> cases() {
        return Stream.of(
                Arguments.of(new Case("nested limits", """
                        limit_req_zone $binary_remote_addr zone=site:1m rate=5r/s;
                        limit_req_zone $binary_remote_addr zone=api:1m rate=5r/s;
                        server {
                          listen 127.0.0.1:%d;
                          root html;
                          limit_req zone=site burst=4 nodelay;
                          location / { try_files /ok =404; }
                          location /api/ { limit_req zone=api burst=1 nodelay; try_files /ok =404; }
                        }
                        """, List.of("/page", "/api/items"), true, false)),
                Arguments.of(new Case("a rate per minute", """
                        limit_req_zone $binary_remote_addr zone=slow:1m rate=120r/m;
                        server {
                          listen 127.0.0.1:%d;
                          root html;
                          location / { limit_req zone=slow burst=2 nodelay; try_files /ok =404; }
                        }
                        """, List.of("/a"), true, false)),
                Arguments.of(new Case("delay=N", """
                        limit_req_zone $binary_remote_addr zone=paced:1m rate=10r/s;
                        server {
                          listen 127.0.0.1:%d;
                          root html;
                          location / { limit_req zone=paced burst=4 delay=2; try_files /ok =404; }
                        }
                        """, List.of("/d"), false, true)),
                Arguments.of(new Case("a dry run with two limits", """
                        limit_req_zone $binary_remote_addr zone=per_client:1m rate=5r/s;
                        limit_req_zone "whole" zone=everyone:1m rate=8r/s;
                        server {
                          listen 127.0.0.1:%d;
                          root html;
                          limit_req_dry_run on;
                          location / {
                            limit_req zone=per_client burst=3 nodelay;
                            limit_req zone=everyone burst=5 nodelay;
                            try_files /ok =404;
                          }
                        }
                        """, List.of("/two"), true, false)),
                Arguments.of(new Case("a key from the request with a map exemption", """
                        map $arg_key $limit_key {
                          default $arg_key;
                          internal "";
                        }
                        limit_req_zone $limit_key zone=keys:1m rate=5r/s;
                        server {
                          listen 127.0.0.1:%d;
                          root html;
                          location / { limit_req zone=keys burst=2 nodelay; try_files /ok =404; }
                        }
                        """, List.of("/k?key=alice", "/k?key=internal"), true, false)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void everyDecisionOfTheExtractedModelIsNginxs(Case c) throws Exception {
        Path dir = TestDirs.fresh(ExtractedLimitsAgainstNginxTest.class, c.name().replace(' ', '-'));
        Path prefix = dir.resolve("nginx");
        Files.createDirectories(prefix.resolve("conf"));
        Files.createDirectories(prefix.resolve("html"));
        Files.writeString(prefix.resolve("html/ok"), "ok\n");
        int port = Ports.free();
        Path conf = Files.writeString(prefix.resolve("conf/nginx.conf"), AdviseShadowStackTest.usersConfig(c.http().formatted(port)));
        int sent = 0;
        try (NginxServer nginx = NginxServer.of("extracted", prefix, "nginx.conf", port).start()) {
            for (int round = 0; round < ROUNDS; round++) {
                long start = System.nanoTime();
                for (String client : CLIENTS) {
                    for (String path : c.paths()) {
                        for (int i = 0; i < BURST_SENT; i++) {
                            assertThat(AdviseShadowStackTest.get(client, port, path)).isIn(200, 503);
                            sent++;
                        }
                    }
                }
                AdviseShadowStackTest.restOfTheSecond(start);
            }
            Path log = prefix.resolve("logs").resolve(AdviceWriter.DRY_RUN_LOG_FILE);
            int expected = sent;
            await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(50))
                    .until(() -> Files.exists(log) && Files.readAllLines(log).size() >= expected);

            assertThat(cli.run("advise", log.toString(), "--nginx-conf", conf.toString(), "--results",
                    dir.resolve("results").toString())).as(cli.err()).isZero();
        }
        JsonNode w = new ObjectMapper().readTree(AdviseCommandTest.adviceFolder(cli.out()).resolve("whatif.json").toFile());
        JsonNode shadow = w.get("shadow");

        assertThat(shadow.get("byRequest").asBoolean()).isTrue();
        assertThat(shadow.get("compared").asInt() + shadow.get("notCompared").asInt()).isEqualTo(sent);
        assertThat(shadow.get("agreementPct").asDouble()).as(shadow.toString()).isEqualTo(100.0);
        // Not a comparison of nothing: nginx refused (or delayed) some, and the model said so of the same ones.
        if (c.rejected()) {
            assertThat(w.get("verdicts").path("REJECTED").asInt()).as(w.get("verdicts").toString()).isPositive();
        }
        if (c.delayed()) {
            assertThat(w.get("verdicts").path("DELAYED").asInt()).as(w.get("verdicts").toString()).isPositive();
        }
    }
}
