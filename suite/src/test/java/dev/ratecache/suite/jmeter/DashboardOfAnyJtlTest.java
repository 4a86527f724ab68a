package dev.ratecache.suite.jmeter;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ratecache.jtl.Jtl;
import dev.ratecache.jtl.JtlSummary;
import dev.ratecache.jtl.Sample;
import dev.ratecache.testkit.StackTest;
import dev.ratecache.testkit.TestDirs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A JTL the suite writes (the client library's driver does) reads in JMeter's own report generator like one JMeter wrote. */
@StackTest
class DashboardOfAnyJtlTest {

    @Test
    void jmetersReportGeneratorReadsAJtlTheDriverWrote() throws Exception {
        Path dir = TestDirs.fresh(getClass(), "driver-jtl");
        Path jtl = dir.resolve("results.jtl");
        long t = 1_795_000_000_000L;
        Jtl.write(jtl, List.of(
                new Sample(t, 120, "/hare", "200", "OK", "user-1", true, 5, 2, "http://127.0.0.1:1/hare", "MISS", ""),
                new Sample(t + 10, 0, "/hare", "200", JtlSummary.CLIENT_CACHE_HIT, "user-1", true, 0, 2,
                        "http://127.0.0.1:1/hare", "", ""),
                new Sample(t + 1_500, 3, "/hare", "429", "Too Many Requests", "user-2", false, 0, 1,
                        "http://127.0.0.1:1/hare", "", "1")));

        JMeter.assembled().dashboard(jtl, dir.resolve("dashboard"));

        JsonNode total = new ObjectMapper().readTree(dir.resolve("dashboard/statistics.json").toFile()).get("Total");
        assertThat(total.get("sampleCount").asInt()).isEqualTo(3);
        assertThat(total.get("errorCount").asInt()).isEqualTo(1);
        assertThat(Files.readString(dir.resolve("dashboard.log")))
                .doesNotContain("does not contain the field names header").doesNotContain("Unknown column");
    }
}
