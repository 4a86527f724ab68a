package dev.ratecache.suite.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ratecache.suite.edge.EdgeProduct;
import dev.ratecache.testkit.LongTest;
import dev.ratecache.testkit.Required;
import dev.ratecache.testkit.StackTest;
import dev.ratecache.testkit.TestDirs;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/**
 * migrate's runs that start processes: --nginx-conf, read as explain reads it (nginx -t, crossplane);
 * and --verify against HAProxy: nginx's tiers from the switches and HAProxy's from the nearest
 * config, each in front of the suite's origin, each flooded by one client at twice the rate; each
 * product's own decisions (its front's events) must be its model's, request by request, within the
 * stated tolerance, and the two must differ as the models said they would.
 */
@StackTest
@LongTest
class MigrateStackTest {
    private final CommandRun cli = new CommandRun();

    @Test
    void bothProductsDecideAsTheirModels(TestInfo test) throws Exception {
        EdgeProduct.DEFAULT.adapter().notInstalled().ifPresent(why -> Required.that(false, why));
        EdgeProduct.HAPROXY.adapter().notInstalled().ifPresent(why -> Required.that(false, why));
        Path out = TestDirs.fresh(test).resolve("out");

        // 20 r/s burst 10, nodelay: the flood at 40 r/s for 5 s passes 11 at once at both, then the rate at nginx only.
        int exit = cli.run("migrate", "--to", "haproxy", "--verify", "--front-rate", "20", "--front-burst", "10",
                "--front-mode", "nodelay", "--back-mode", "nodelay", "--out", out.toString());
        String said = cli.out() + cli.err();
        assertThat(exit).as(said).isZero();
        assertThat(said).contains("nginx: ", "HAProxy: ").doesNotContain("DISAGREES");

        JsonNode json = new ObjectMapper().readTree(out.resolve("migrate.json").toFile());
        assertThat(json.get("verified").asText()).contains("agrees");
        assertThat(json.get("verify").findValuesAsText("product")).containsExactly("nginx", "HAProxy");
        json.get("verify").forEach(v -> assertThat(v.get("agrees").asBoolean()).as(v.toString()).isTrue());
        String report = Files.readString(out.resolve("report.md"));
        assertThat(report).contains("## Verified");
        // Each product logged the flood (40 r/s for 5 s, 200 requests) and refused some of it.
        for (String product : new String[] {"nginx", "HAProxy"}) {
            String line = said.lines().filter(l -> l.startsWith("  - " + product + ": ")).findFirst().orElseThrow();
            long requests = Long.parseLong(line.replaceAll("^  - [^:]+: (\\d+) requests.*", "$1"));
            long refused = Long.parseLong(line.replaceAll("^.*requests, (\\d+) refused by.*", "$1"));
            assertThat(requests).as(line).isBetween(190L, 200L);
            assertThat(refused).as(line).isPositive();
        }
    }

    /**
     * A user's nginx.conf in place of the switches: its one limit_req (10 r/s burst 20 nodelay, by
     * address, 503 as limit_req_status is not set) is the limit moved, and the report says where it came from.
     */
    @Test
    void theLimitOfAUsersNginxConf(TestInfo test) throws Exception {
        EdgeProduct.DEFAULT.adapter().notInstalled().ifPresent(why -> Required.that(false, why));
        Path dir = TestDirs.fresh(test);
        Path conf = Files.writeString(dir.resolve("nginx.conf"), """
                events {}
                http {
                    limit_req_zone $binary_remote_addr zone=api:10m rate=10r/s;
                    server {
                        listen 127.0.0.1:8089;
                        location /api/ {
                            limit_req zone=api burst=20 nodelay;
                            proxy_pass http://127.0.0.1:9000;
                        }
                    }
                }
                """);
        Path out = dir.resolve("out");
        int exit = cli.run("migrate", "--to", "varnish", "--nginx-conf", conf.toString(), "--out", out.toString());
        assertThat(exit).as(cli.out() + cli.err()).isZero();
        assertThat(cli.out()).contains("Moving from nginx's 10 r/s burst 20 (nodelay) to Varnish's nearest");
        JsonNode limit = new ObjectMapper().readTree(out.resolve("migrate.json").toFile()).get("limit");
        assertThat(limit.get("rate").asInt()).isEqualTo(10);
        assertThat(limit.get("burst").asInt()).isEqualTo(20);
        assertThat(limit.get("mode").asText()).isEqualTo("nodelay");
        assertThat(limit.get("rejectStatus").asInt()).isEqualTo(503);
        assertThat(limit.get("source").asText()).startsWith(conf + "'s limit_req at ").endsWith("nginx.conf:7");

        // The switches and the config both giving the limit: one line, before anything is read.
        assertThat(cli.run("migrate", "--to", "varnish", "--nginx-conf", conf.toString(), "--front-rate", "5"))
                .isEqualTo(2);
        assertThat(cli.err()).contains("--nginx-conf gives the limit, and so does --front-rate");
    }
}
