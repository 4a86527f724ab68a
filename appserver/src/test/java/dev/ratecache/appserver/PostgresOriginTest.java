package dev.ratecache.appserver;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ratecache.appserver.items.ItemSeed;
import dev.ratecache.appserver.places.PlaceSeed;
import dev.ratecache.proc.PostgresServer;
import dev.ratecache.testkit.Required;
import dev.ratecache.testkit.StackTest;
import dev.ratecache.testkit.TestDirs;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.autoconfigure.actuate.observability.AutoConfigureObservability;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The origin on a real PostgreSQL (Debian's, started as the suite starts it, once for the class)
 * with a pool of one connection: the queries behind /places, /items written and read through it,
 * a seed that a reused database does not double, a request that finds no free connection
 * answered 504 and counted, a dead database answered 502, and PostgreSQL's CPU seen with its
 * backends.
 */
@AutoConfigureObservability(tracing = false)
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT, properties = {
    "management.server.port=0",
    "origin.database.pool-size=1",
    "origin.database.acquire-timeout=1s",
    "origin.items.count=1000"
})
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@StackTest
class PostgresOriginTest extends RunningOrigin {

    static PostgresServer postgres;

    @Autowired
    DataSource dataSource;

    @Autowired
    JdbcTemplate jdbc;

    @Autowired
    PlaceSeed placeSeed;

    @Autowired
    ItemSeed itemSeed;

    @BeforeAll
    static void startPostgres() throws IOException {
        Required.that(PostgresServer.notInstalled().isEmpty(), PostgresServer.notInstalled().orElse(""));
        postgres = PostgresServer.start(TestDirs.fresh(PostgresOriginTest.class, "postgres"), 0);
    }

    @AfterAll
    static void stopPostgres() {
        if (postgres != null) {
            postgres.close();
        }
    }

    @DynamicPropertySource
    static void database(DynamicPropertyRegistry registry) {
        registry.add("spring.datasource.url", () -> postgres.jdbcUrl());
        registry.add("spring.datasource.username", () -> PostgresServer.USER);
    }

    @Test
    @Order(1)
    void placesAreQueriedFromPostgresCacheableWithAValidatorAndCounted() {
        double cpuBefore = postgres.cpuSeconds().orElseThrow();

        HttpResponse<String> small = api.get("/places?code=1227");
        assertThat(small.statusCode()).isEqualTo(200);
        JsonNode rows = OriginHttp.json(small.body());
        assertThat(rows).hasSize(PlaceSeed.PER_CODE);
        rows.forEach(row -> assertThat(row.get("code").asText()).isEqualTo("1227"));
        assertThat(small.headers().firstValue("Cache-Control")).hasValue(
                "public, max-age=10, s-maxage=86400, stale-while-revalidate=60, stale-if-error=600");
        String etag = small.headers().firstValue("ETag").orElseThrow();
        assertThat(etag).matches("\"places-[0-9a-f]{16}\"");

        HttpResponse<String> medium = api.get("/places?region=R042&n=7");
        assertThat(OriginHttp.json(medium.body())).hasSize(PlaceSeed.PER_REGION);
        assertThat(api.get("/places?code=99999999").body()).isEqualTo("[]");
        assertThat(api.get("/places").statusCode()).isEqualTo(400);
        assertThat(api.get("/places?code=1;drop").statusCode()).isEqualTo(400);

        HttpResponse<String> revalidated = api.get("/places?code=1227", "If-None-Match", etag);
        assertThat(revalidated.statusCode()).isEqualTo(304);
        assertThat(revalidated.body()).isEmpty();
        assertThat(revalidated.headers().firstValue("ETag")).hasValue(etag);

        for (int i = 0; i < 300; i++) {
            api.get("/places?region=R" + String.format("%03d", 1 + i % 200));
        }
        JsonNode counters = management.getJson("/actuator/origin");
        assertThat(counters.at("/endpoints/places/requests").asLong()).isEqualTo(306);
        assertThat(counters.at("/endpoints/places/notModified").asLong()).isEqualTo(1);
        assertThat(counters.at("/database/product").asText()).startsWith("PostgreSQL 15");
        assertThat(counters.at("/database/queries").asLong()).as("the two refused are no query").isEqualTo(304);
        assertThat(counters.at("/database/pool/max").asLong()).isEqualTo(1);
        assertThat(counters.at("/database/pool/acquisitions").asLong()).isGreaterThanOrEqualTo(304);
        // The queries ran in a backend the postmaster forked, which counts as PostgreSQL's.
        assertThat(postgres.cpuSeconds().orElseThrow()).isGreaterThan(cpuBefore);
    }

    @Test
    @Order(2)
    void itemsAreWrittenAndReadThroughPostgres() {
        HttpResponse<String> put = api.putJson("/items/42", "{\"name\":\"in postgres\"}");
        assertThat(put.statusCode()).isEqualTo(200);
        assertThat(OriginHttp.json(put.body()).get("version").asLong()).isEqualTo(2);
        assertThat(api.putJson("/items/42", "{\"name\":\"again\"}").headers().firstValue("ETag"))
                .hasValue("\"item-42-v3\"");
        HttpResponse<String> created = api.postJson("/items", "{\"name\":\"new\"}");
        assertThat(created.statusCode()).isEqualTo(201);
        assertThat(created.headers().firstValue("Location")).hasValue("/items/1001");
        assertThat(api.getJson("/items/42").get("name").asText()).isEqualTo("again");
        assertThat(api.delete("/items/42").statusCode()).isEqualTo(204);
        assertThat(api.get("/items/42").statusCode()).isEqualTo(404);
        assertThat(jdbc.queryForObject("SELECT name FROM items WHERE id = 1001", String.class)).isEqualTo("new");
    }

    @Test
    @Order(3)
    void aReusedDatabaseIsSeededWithoutDoublingItsRows() {
        api.putJson("/items/7", "{\"name\":\"edited\"}");
        // What a restarted origin does against the data folder it left.
        placeSeed.afterPropertiesSet();
        itemSeed.afterPropertiesSet();
        assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM places", Integer.class)).isEqualTo(10_000);
        assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM items", Integer.class)).isEqualTo(1000);
        assertThat(api.getJson("/items/7").get("version").asLong()).as("back at its seed").isEqualTo(1);
        assertThat(api.postJson("/items", "{\"name\":\"next\"}").headers().firstValue("Location"))
                .hasValue("/items/1001");
    }

    @Test
    @Order(4)
    void aRequestThatFindsNoFreeConnectionIsAnswered504AndCounted() throws Exception {
        HttpResponse<String> waited;
        // The pool's one connection, held here as a long query would hold it.
        try (Connection held = dataSource.getConnection()) {
            CompletableFuture<HttpResponse<String>> request = api.getAsync("/items/5");
            waited = request.get(30, TimeUnit.SECONDS);
        }
        assertThat(waited.statusCode()).isEqualTo(504);
        assertThat(waited.headers().firstValue("Cache-Control")).isEmpty();
        assertThat(OriginHttp.json(waited.body()).get("error").asText())
                .isEqualTo("no database connection freed up within 1000 ms (a pool of 1)");
        assertThat(api.get("/items/5").statusCode()).as("the connection is back").isEqualTo(200);

        JsonNode counters = management.getJson("/actuator/origin");
        assertThat(counters.at("/database/timeouts").asLong()).isEqualTo(1);
        assertThat(counters.at("/database/failures").asLong()).isZero();
        assertThat(counters.at("/database/pool/timeouts").asLong()).isEqualTo(1);
        assertThat(counters.at("/database/pool/acquireMsTotal").asDouble()).isGreaterThanOrEqualTo(1000);
        assertThat(counters.at("/items/requests/GET/504").asLong()).isEqualTo(1);
        assertThat(management.get("/actuator/prometheus").body())
                .containsPattern("(?m)^origin_database_unanswered_total\\{status=\"504\"\\} 1\\.0$")
                .containsPattern("(?m)^hikaricp_connections_timeout_total\\{pool=\"origin\"\\} [1-9]");
    }

    @Test
    @Order(5)
    void aDeadDatabaseIsAnswered502CountedAndTheOriginStaysHealthy() {
        postgres.kill();
        HttpResponse<String> read = api.get("/places?code=1227");
        assertThat(read.statusCode()).isEqualTo(502);
        assertThat(OriginHttp.json(read.body()).get("error").asText()).startsWith("the database failed: ");
        // The pool finds it cannot open a new connection: 502 again, within the acquire timeout.
        Timed<HttpResponse<String>> next = Timed.of(() -> api.get("/items/3"));
        assertThat(next.result().statusCode()).isEqualTo(502);
        assertThat(next.elapsed()).isLessThan(Duration.ofSeconds(10));

        JsonNode counters = management.getJson("/actuator/origin");
        assertThat(counters.at("/database/failures").asLong()).isEqualTo(2);
        assertThat(counters.at("/database/lastFailure").asText()).isNotBlank();
        assertThat(management.get("/actuator/health").statusCode()).isEqualTo(200);
    }
}
