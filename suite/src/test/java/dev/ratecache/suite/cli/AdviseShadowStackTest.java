package dev.ratecache.suite.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ratecache.proc.Ports;
import dev.ratecache.suite.Waits;
import dev.ratecache.suite.advise.AdviceWriter;
import dev.ratecache.suite.nginx.NginxServer;
import dev.ratecache.testkit.StackTest;
import dev.ratecache.testkit.TestDirs;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Shadow mode end to end: a real nginx runs a config with {@code limit_req_dry_run on} and the log
 * format advise writes (nginx/dry-run/limit-req-status-log.conf), crafted traffic comes from
 * several 127.x addresses, and {@code advise LOG --nginx-conf CONF} compares each of nginx's logged
 * decisions with the model's.
 *
 * <p>The traffic keeps off the boundaries, beside two busy loops too: bursts of six sent back to
 * back against burst=3 at 5 r/s, where a burst would have to take 200 ms (not the few ms it takes)
 * for its fifth request to pass, a second apart so that each burst meets a drained state (the
 * most a burst leaves, 3 requests, drains in 600 ms). So no decision is near its boundary, and
 * agreement must be 100 %, the clocks' 2 ms included (nginx logs {@code $msec} from its wall clock
 * while limit_req reads its monotonic clock: WhatIf, NginxComparison).
 */
@StackTest
class AdviseShadowStackTest {
    static final int ROUNDS = 4;
    static final List<String> CLIENTS = List.of("127.0.0.2", "127.0.0.3", "127.0.0.4");
    static final int BURST_SENT = 6;
    static final int QUEUED = 3;
    static final int WARM_UP = 5;
    static final String RATE = "5r/s";

    static Path dir;
    static NginxServer nginx;
    static Path conf;
    static Path log;

    private final CommandRun cli = new CommandRun();

    /** The config that runs, as a user's nginx.conf; {@code rate} is the per-client zone's. */
    static String config(int port, String rate) {
        return usersConfig("  limit_req_zone $binary_remote_addr zone=per_client:1m rate=" + rate + ";\n"
                + "  server {\n"
                + "    listen 127.0.0.1:" + port + ";\n"
                + "    root html;\n"
                + "    limit_req_dry_run on;\n"
                + "    location / {\n"
                + "      limit_req zone=per_client burst=3 nodelay;\n"
                + "      try_files /ok =404;\n"
                + "    }\n"
                + "    location /queued/ {\n"
                + "      limit_req zone=per_client burst=3;\n"
                + "      try_files /ok =404;\n"
                + "    }\n"
                + "    location = /health {\n"
                + "      try_files /ok =404;\n"
                + "    }\n"
                + "  }\n");
    }

    /** A user's whole nginx.conf around {@code http}, the http block's body, logging in advise's dry-run format. */
    static String usersConfig(String http) {
        return ("root".equals(System.getProperty("user.name")) ? "user root;\n" : "")
                + "worker_processes 1;\n"
                + "error_log logs/error.log info;\n"
                + "events { worker_connections 1024; }\n"
                + "http {\n"
                + "  client_body_temp_path temp/client_body;\n  proxy_temp_path temp/proxy;\n"
                + "  fastcgi_temp_path temp/fastcgi;\n  uwsgi_temp_path temp/uwsgi;\n  scgi_temp_path temp/scgi;\n"
                + AdviceWriter.dryRunLog()
                + http
                + "}\n";
    }

    /**
     * Lets the rest of the second that began at {@code startNanos} pass, so that the next round of
     * bursts meets a drained state: a deliberate wait, as asking nginx whether a bucket drained
     * would fill it again.
     */
    static void restOfTheSecond(long startNanos) {
        Waits.past(Duration.ofMillis(Math.max(0, 1000 - (System.nanoTime() - startNanos) / 1_000_000)));
    }

    @BeforeAll
    static void runTrafficThroughADryRun() throws Exception {
        dir = TestDirs.fresh(AdviseShadowStackTest.class, "shadow");
        Path prefix = dir.resolve("nginx");
        Files.createDirectories(prefix.resolve("conf"));
        Files.createDirectories(prefix.resolve("html"));
        Files.writeString(prefix.resolve("html/ok"), "ok\n");
        int port = Ports.free();
        conf = Files.writeString(prefix.resolve("conf/nginx.conf"), config(port, RATE));
        nginx = NginxServer.of("shadow", prefix, "nginx.conf", port).start();
        int sent = 0;
        // Unlimited requests first, so that the JIT's first connections (90 ms once) do not stretch the first burst.
        for (int i = 0; i < WARM_UP; i++) {
            assertThat(get("127.0.0.9", port, "/health")).isEqualTo(200);
            sent++;
        }
        for (int round = 0; round < ROUNDS; round++) {
            long start = System.nanoTime();
            for (String client : CLIENTS) {
                for (int i = 0; i < BURST_SENT; i++) {
                    assertThat(get(client, port, "/r/" + round)).as("a dry run refuses nothing").isEqualTo(200);
                    sent++;
                }
            }
            restOfTheSecond(start);
        }
        for (int i = 0; i < QUEUED; i++) {
            assertThat(get("127.0.0.5", port, "/queued/x")).isEqualTo(200);
            sent++;
        }
        int expected = sent;
        log = prefix.resolve("logs").resolve(AdviceWriter.DRY_RUN_LOG_FILE);
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(50))
                .until(() -> Files.exists(log) && Files.readAllLines(log).size() >= expected);
    }

    @AfterAll
    static void stopNginx() {
        if (nginx != null) {
            nginx.close();
        }
    }

    /** One GET over a new connection from {@code source} (any 127.0.0.0/8 address is local on Linux); its status. */
    static int get(String source, int port, String path) throws Exception {
        try (Socket s = new Socket()) {
            s.bind(new InetSocketAddress(InetAddress.getByName(source), 0));
            s.setTcpNoDelay(true);
            s.connect(new InetSocketAddress("127.0.0.1", port), 5000);
            s.setSoTimeout(30_000);
            OutputStream out = s.getOutputStream();
            out.write(("GET " + path + " HTTP/1.1\r\nHost: shadow.test\r\nConnection: close\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = s.getInputStream();
            String response = new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
            return Integer.parseInt(response.substring(9, 12));
        }
    }

    static int count(String text, String what) {
        return text.split(java.util.regex.Pattern.quote(what), -1).length - 1;
    }

    JsonNode whatIf(String... args) throws Exception {
        String[] all = new String[args.length + 3];
        all[0] = "advise";
        System.arraycopy(args, 0, all, 1, args.length);
        all[args.length + 1] = "--results";
        all[args.length + 2] = dir.resolve("results").toString();
        assertThat(cli.run(all)).as(cli.err()).isZero();
        Path folder = AdviseCommandTest.adviceFolder(cli.out());
        assertThat(folder.resolve("advice.md")).content().contains("## Your config: what if", "## Shadow");
        assertThat(folder.resolve("whatif.csv")).exists();
        return new ObjectMapper().readTree(folder.resolve("whatif.json").toFile());
    }

    @Test
    void theModelAgreesWithEveryDecisionNginxLoggedInItsDryRun() throws Exception {
        JsonNode w = whatIf(log.toString(), "--nginx-conf", conf.toString());
        JsonNode shadow = w.get("shadow");

        assertThat(cli.out()).contains("shadow: the model agrees with nginx's dry run on");
        assertThat(shadow.get("byRequest").asBoolean()).isTrue();
        assertThat(shadow.get("dryRun").asBoolean()).isTrue();
        int requests = ROUNDS * CLIENTS.size() * BURST_SENT + QUEUED + WARM_UP;
        assertThat(shadow.get("compared").asInt()).isEqualTo(requests);
        assertThat(w.get("verdicts").get("NOT_LIMITED").asInt()).isEqualTo(WARM_UP);
        assertThat(shadow.get("agreementPct").asDouble()).as(shadow.toString()).isEqualTo(100.0);
        // The figures are the model's, and they are nginx's: as many rejected and delayed as it logged. (Not a
        // fixed two of each six: beside busy loops a burst may be paused long enough for a request to drain.)
        String logged = Files.readString(log);
        assertThat(w.get("verdicts").get("REJECTED").asInt()).isPositive()
                .isEqualTo(count(logged, "\"limit_req\":\"REJECTED_DRY_RUN\""));
        assertThat(w.get("verdicts").path("DELAYED").asInt()).isEqualTo(count(logged, "\"limit_req\":\"DELAYED_DRY_RUN\""));
        assertThat(w.get("hardestHit").get(0).get("rejected").asInt()).isPositive();
        assertThat(w.get("perPath").findValuesAsText("name")).contains("/queued/x").doesNotContain("/health");
    }

    @Test
    void aConfigWithAnotherRateThanTheOneThatRanDisagreesLineByLine() throws Exception {
        Path slower = Files.writeString(dir.resolve("slower.conf"), config(Ports.free(), "1r/s"));
        JsonNode shadow = whatIf(log.toString(), "--nginx-conf", slower.toString()).get("shadow");

        // At 1 r/s each round's burst meets the last one's excess, a second later barely drained.
        assertThat(shadow.get("agreementPct").asDouble()).isLessThan(90.0);
        assertThat(shadow.get("disagreements").get(0).get("line").asInt()).isPositive();
        assertThat(cli.out()).containsPattern("line \\d+ \\(.*\\): model REJECTED, nginx PASSED");
    }

    @Test
    void aConfigNginxRefusesIsRefusedInOneLineQuotingNginxBeforeAnythingIsWritten() throws Exception {
        Path refused = Files.writeString(dir.resolve("refused.conf"),
                config(Ports.free(), RATE).replace("limit_req zone=per_client burst=3;", "limit_req zone=nowhere burst=3;"));
        Path results = dir.resolve("refused-results");

        assertThat(cli.run("advise", log.toString(), "--nginx-conf", refused.toString(), "--results", results.toString()))
                .isEqualTo(2);
        assertThat(cli.err().lines().findFirst().orElse("")).startsWith("run-tests.sh: --nginx-conf nginx refuses the config:")
                .contains("[emerg]", "nowhere");
        assertThat(results).doesNotExist();
    }
}
