package dev.ratecache.suite.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ratecache.suite.Repo;
import dev.ratecache.suite.docs.Committed;
import dev.ratecache.testkit.TestDirs;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.TestInfo;

/**
 * results/example-migrate is one default {@code ./run-tests.sh migrate --to haproxy}, and docs/edges.md
 * quotes it: the command is run afresh (it starts nothing, and its models are exact, so it writes the
 * same every time) and every file it writes must be the committed one; the page's block is written from
 * the committed migrate.json. {@code -Ddocs.write=true} writes both again.
 */
// The example first: with -Ddocs.write=true the page's block is then written from the example just written.
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class MigrateExampleTest {
    static final String REGENERATE = "./mvnw -B -q test -pl suite -am -Dtest=MigrateExampleTest -Ddocs.write=true";
    static final Path EXAMPLE = Path.of("results/example-migrate");

    @Test
    @Order(1)
    void theCommittedExampleIsWhatTheCommandWrites(TestInfo test) throws Exception {
        Path out = TestDirs.fresh(test).resolve("out");
        CommandRun cli = new CommandRun();
        assertThat(cli.run("migrate", "--to", "haproxy", "--out", out.toString())).as(cli.err()).isZero();
        List<Path> files;
        try (Stream<Path> all = Files.walk(out)) {
            files = all.filter(Files::isRegularFile).map(out::relativize).sorted().toList();
        }
        assertThat(files).contains(Path.of("report.md"), Path.of("migrate.json"));
        for (Path file : files) {
            Committed.page(Repo.root().resolve(EXAMPLE).resolve(file), Files.readString(out.resolve(file),
                    StandardCharsets.UTF_8), REGENERATE);
        }
    }

    @Test
    @Order(2)
    void theEdgesPageQuotesTheCommittedExample() throws Exception {
        JsonNode json = new ObjectMapper().readTree(Repo.root().resolve(EXAMPLE).resolve("migrate.json").toFile());
        StringBuilder block = new StringBuilder("What differs and why:\n\n");
        json.get("differences").forEach(d -> block.append("- ").append(d.asText()).append('\n'));
        block.append("\nRequest by request:\n\n");
        json.get("traffics").forEach(t -> block.append("- ").append(t.get("sentence").asText()).append('\n'));
        assertThat(json.get("traffics")).hasSize(4);
        Committed.block(Repo.root().resolve("docs/edges.md"), "migrate", block.toString(), REGENERATE);
    }
}
