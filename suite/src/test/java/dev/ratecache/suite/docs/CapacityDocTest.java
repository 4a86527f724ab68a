package dev.ratecache.suite.docs;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ratecache.suite.Repo;
import dev.ratecache.suite.edge.EdgeProduct;
import dev.ratecache.suite.edge.HaproxyEdge;
import dev.ratecache.suite.peak.HitInstructions;
import dev.ratecache.suite.peak.ServiceDemands;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/**
 * docs/capacity.md's measured tables come from the committed files peak writes: the instruction
 * counts of results/example-capacity/instructions.json (instructions-haproxy.json for HAProxy) and each product's demands*.json beside it. A new measurement
 * changes them in one command, never by hand.
 */
class CapacityDocTest {
    private static final String REGENERATE = "./mvnw -B -q test -pl suite -am -Dtest=CapacityDocTest -Ddocs.write=true";
    private static final Path PAGE = Repo.root().resolve("docs/capacity.md");

    @Test
    void thePageQuotesTheCommittedInstructionCountsAndTheBoundTheTestCommandHolds() throws Exception {
        JsonNode json = new ObjectMapper().readTree(Repo.root().resolve(ServiceDemands.COMMITTED).resolve("instructions.json").toFile());
        StringBuilder table = new StringBuilder(String.format(Locale.ROOT, "Measured %s on %s CPUs (%s), nginx %s.%n%n",
                json.get("measured").asText().substring(0, 10), json.path("machine").path("cpus").asText(),
                json.path("machine").path("cpu_model").asText(), json.path("machine").path("nginx").asText()));
        table.append("| front tier, HIT path | instructions per HIT | over the bare cache |\n| --- | ---: | ---: |\n");
        json.get("rows").forEach(r -> table.append(String.format(Locale.ROOT, "| %s | %,d | %.2f |%n",
                r.get("step").asText(), r.get("instructionsPerHit").asLong(), r.get("ratio").asDouble())));
        table.append(String.format(Locale.ROOT, "%nThe production front over the bare cache: %.2f; the bound: %.2f.%n",
                json.get("ratio").asDouble(), json.get("bound").asDouble()));
        // The committed counts hold the bound the guard holds the code to.
        assertThat(json.get("ratio").asDouble()).isLessThanOrEqualTo(HitInstructions.NGINX_BOUND);
        JsonNode haproxy = new ObjectMapper().readTree(Repo.root().resolve(ServiceDemands.COMMITTED)
                .resolve("instructions-haproxy.json").toFile());
        table.append(String.format(Locale.ROOT, "%nHAProxy (`peak --instructions --edge haproxy`, one thread each, %s):%n%n"
                + "| HAProxy, HIT path | instructions per HIT | over the bare form |%n| --- | ---: | ---: |%n",
                haproxy.path("machine").path("haproxy").asText()));
        haproxy.get("rows").forEach(r -> table.append(String.format(Locale.ROOT, "| %s | %,d | %.2f |%n",
                r.get("step").asText(), r.get("instructionsPerHit").asLong(), r.get("ratio").asDouble())));
        table.append(String.format(Locale.ROOT, "%nHAProxy's full front over its bare form: %.2f; the bound: %.2f.%n",
                haproxy.get("ratio").asDouble(), haproxy.get("bound").asDouble()));
        assertThat(haproxy.get("ratio").asDouble()).isLessThanOrEqualTo(HaproxyEdge.COUNTED_BOUND);

        Committed.block(PAGE, "instructions", table.toString(), REGENERATE);
    }

    @Test
    void thePageQuotesEveryProductsCommittedDemands() throws Exception {
        StringBuilder table = new StringBuilder("CPU microseconds per request, median over the rounds (least–most), and"
                + " the rate the client drove (`wrk -t1 -c50`; `openssl s_time -new` for a handshake, one connection at a time;"
                + " `h2load -c5 -m10` for HTTP/2), one nginx worker. A class a product has no figures for says why.\n\n"
                + "| product | class | front | back | origin | Redis | PostgreSQL | client | per second |\n"
                + "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
        String measured = null;
        for (EdgeProduct product : EdgeProduct.values()) {
            Path file = Repo.root().resolve(ServiceDemands.COMMITTED).resolve(ServiceDemands.fileName(product));
            assertThat(file).as(product + "'s demands in " + ServiceDemands.COMMITTED).exists();
            JsonNode json = new ObjectMapper().readTree(file.toFile());
            measured = measured != null ? measured : json.get("measured").asText().substring(0, 10) + " on "
                    + json.path("machine").path("cpus").asText() + " CPUs (" + json.path("machine").path("cpu_model").asText()
                    + ")";
            var classes = json.get("classes").fields();
            while (classes.hasNext()) {
                var c = classes.next();
                JsonNode d = c.getValue().get("demands");
                table.append(String.format(Locale.ROOT, "| %s | %s | %s | %s | %s | %s | %s | %s | %.0f |%n",
                        product.displayName(), c.getKey().toUpperCase(Locale.ROOT), cell(d.get("front")), cell(d.get("back")),
                        cell(d.get("origin")), cell(d.get("redis")), cell(d.get("postgresql")), cell(d.get("load_generator")),
                        c.getValue().get("requestsPerSecond").get("median").asDouble()));
            }
            var missing = json.path("notMeasured").fields();
            while (missing.hasNext()) {
                var m = missing.next();
                table.append(String.format(Locale.ROOT, "| %s | %s | not measured: %s | | | | | | |%n", product.displayName(),
                        m.getKey().toUpperCase(Locale.ROOT), m.getValue().asText()));
            }
        }
        table.append("\nMeasured ").append(measured).append(", idle.\n");
        assertThat(Files.readString(PAGE)).contains("peak --demands");

        Committed.block(PAGE, "demands", table.toString(), REGENERATE);
    }

    /** A component's median (least–most); a dash for one the class does not reach (no Redis, no PostgreSQL). */
    private static String cell(JsonNode spread) {
        if (spread == null) {
            return "–";
        }
        return String.format(Locale.ROOT, "%.1f (%.1f–%.1f)", spread.get("median").asDouble(), spread.get("min").asDouble(),
                spread.get("max").asDouble());
    }
}
