package dev.ratecache.suite.peak;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ratecache.suite.edge.EdgeProduct;
import dev.ratecache.suite.peak.ServiceDemands.ClassDemands;
import dev.ratecache.suite.peak.ServiceDemands.Component;
import dev.ratecache.suite.peak.ServiceDemands.RequestClass;
import dev.ratecache.testkit.TestDirs;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** demands.json and the table: what peak --demands writes of its measurements. */
class ServiceDemandsTest {

    private static ServiceDemands.Outcome outcome() {
        Map<Component, Spread> hit = new EnumMap<>(Component.class);
        hit.put(Component.FRONT, new Spread(List.of(17.0, 18.0, 20.0)));
        hit.put(Component.BACK, new Spread(List.of(0.0, 0.0, 0.0)));
        hit.put(Component.ORIGIN, new Spread(List.of(0.1, 0.1, 0.1)));
        hit.put(Component.LOAD_GENERATOR, new Spread(List.of(11.0, 11.5, 12.0)));
        Map<RequestClass, ClassDemands> demands = new EnumMap<>(RequestClass.class);
        demands.put(RequestClass.HIT, new ClassDemands(hit, new Spread(List.of(56_000.0, 57_000.0, 58_000.0))));
        return new ServiceDemands.Outcome(EdgeProduct.HAPROXY, Map.of("cpus", "2", "cpu_model", "Test CPU"), 50,
                demands, Map.of(RequestClass.MISS, "HAProxy's tiers lost a process during the MISS run"), List.of());
    }

    @Test
    void demandsJsonHoldsTheMachineAndPerClassAndComponentTheMedianAndRange() throws Exception {
        Path file = TestDirs.fresh(ServiceDemandsTest.class, "json").resolve("demands.json");

        ServiceDemands.write(outcome(), file);

        JsonNode json = new ObjectMapper().readTree(file.toFile());
        assertThat(json.get("product").asText()).isEqualTo("haproxy");
        assertThat(json.get("machine").get("cpus").asText()).isEqualTo("2");
        assertThat(json.get("load").get("connections").asInt()).isEqualTo(50);
        JsonNode front = json.get("classes").get("hit").get("demands").get("front");
        assertThat(front.get("median").asDouble()).isEqualTo(18.0);
        assertThat(front.get("min").asDouble()).isEqualTo(17.0);
        assertThat(front.get("max").asDouble()).isEqualTo(20.0);
        assertThat(front.get("rounds")).hasSize(3);
        assertThat(json.get("classes").get("hit").get("demands").get("load_generator").get("median").asDouble())
                .isEqualTo(11.5);
        assertThat(json.get("notMeasured").get("miss").asText()).contains("lost a process during the MISS run");
    }

    @Test
    void totalIsEveryComponentsMedianAdded() {
        assertThat(outcome().of(RequestClass.HIT).total()).isEqualTo(18.0 + 0.0 + 0.1 + 11.5);
    }

    @Test
    void tableGivesEachComponentsMedianWithItsRange() {
        assertThat(ServiceDemands.table(outcome())).contains("18.0 (17.0-20.0)", "11.5 (11.0-12.0)", "57000",
                "MISS          not measured: HAProxy's tiers lost a process");
    }

    @Test
    void redisAndPostgresqlAreColumnsOnlyWhereAClassReachedThemAndADashForTheOthers() throws Exception {
        ServiceDemands.Outcome base = outcome();
        Map<RequestClass, ClassDemands> demands = new EnumMap<>(base.demands());
        Map<Component, Spread> quota = new EnumMap<>(base.of(RequestClass.HIT).byComponent());
        quota.put(Component.REDIS, new Spread(List.of(16.0, 16.5, 17.0)));
        demands.put(RequestClass.QUOTA_HIT, new ClassDemands(quota, new Spread(List.of(28_000.0))));
        ServiceDemands.Outcome withRedis = new ServiceDemands.Outcome(EdgeProduct.DEFAULT, base.machine(), 50, demands,
                Map.of(), List.of());
        Path file = TestDirs.fresh(ServiceDemandsTest.class, "redis").resolve("demands.json");

        ServiceDemands.write(withRedis, file);
        String table = ServiceDemands.table(withRedis);

        assertThat(table.lines().filter(l -> l.startsWith("class")).findFirst().orElseThrow())
                .contains("Redis").doesNotContain("PostgreSQL");
        assertThat(table.lines().filter(l -> l.startsWith("HIT ")).findFirst().orElseThrow()).contains(" - ");
        assertThat(table.lines().filter(l -> l.startsWith("QUOTA_HIT")).findFirst().orElseThrow()).contains("16.5 (16.0-17.0)");
        JsonNode classes = new ObjectMapper().readTree(file.toFile()).get("classes");
        assertThat(classes.get("quota_hit").get("demands").get("redis").get("median").asDouble()).isEqualTo(16.5);
        assertThat(classes.get("hit").get("demands").has("redis")).isFalse();
        assertThat(withRedis.of(RequestClass.QUOTA_HIT).total()).isEqualTo(18.0 + 0.0 + 0.1 + 16.5 + 11.5);
        assertThat(withRedis.of(RequestClass.HIT).median(Component.REDIS)).isZero();
    }

    @Test
    void eachProductHasAFileOfItsOwnByDefault() {
        assertThat(ServiceDemands.defaultFile(EdgeProduct.DEFAULT)).isEqualTo("results/demands.json");
        assertThat(ServiceDemands.defaultFile(EdgeProduct.ENVOY)).isEqualTo("results/demands-envoy.json");
    }
}
