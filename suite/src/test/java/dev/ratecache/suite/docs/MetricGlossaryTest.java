package dev.ratecache.suite.docs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.suite.Repo;
import dev.ratecache.suite.matrix.Metric;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * docs/methodology.md's table of metrics is the code's list ({@link Metric}) written out: a metric
 * added, renamed or redefined in the code changes the table, and this test fails until the page
 * is written again. The report's headings and --assert's help link to its rows by their anchors.
 */
class MetricGlossaryTest {
    static final Path PAGE = Path.of("docs/methodology.md");
    static final String WRITE = "./mvnw -B -q test -pl suite -am -Dtest=MetricGlossaryTest -Ddocs.write=true";

    /** The table: one row per metric, its id carrying the anchor the report links to. */
    static String table() {
        StringBuilder md = new StringBuilder("| metric | meaning | unit | how it is measured |\n| --- | --- | --- | --- |\n");
        for (Metric m : Metric.values()) {
            // Both attributes: renderers that drop one (name is obsolete in HTML5, id is prefixed on some hosts) keep the other.
            md.append("| <a id=\"").append(m.anchor()).append("\" name=\"").append(m.anchor()).append("\"></a>`")
                    .append(m.id()).append("` | ")
                    .append(cell(m.meaning())).append(" | ").append(cell(m.unit())).append(" | ")
                    .append(cell(m.measured())).append(" |\n");
        }
        return md.toString();
    }

    /** A bar would end the table's cell. */
    private static String cell(String text) {
        return text.replace("|", "\\|");
    }

    @Test
    void theMethodologyPagesTableOfMetricsIsTheCodesList() throws Exception {
        Committed.block(Repo.root().resolve(PAGE), "metrics", table(), WRITE);
    }

    @Test
    void everyMetricIsDefinedInFullAndTheHelpAndRefusalPointToTheTable() throws Exception {
        for (Metric m : Metric.values()) {
            assertThat(m.meaning()).as(m.id()).isNotBlank();
            assertThat(m.measured()).as(m.id()).isNotBlank().isNotEqualTo(m.meaning());
            assertThat(m.unit()).as(m.id()).isNotBlank();
        }
        String page = Files.readString(Repo.root().resolve(PAGE), StandardCharsets.UTF_8);
        assertThat(Metric.GLOSSARY).startsWith(PAGE + "#");
        assertThat(page).contains("\n## " + Character.toUpperCase(Metric.GLOSSARY.charAt(Metric.GLOSSARY.indexOf('#') + 1))
                + Metric.GLOSSARY.substring(Metric.GLOSSARY.indexOf('#') + 2) + "\n");
        try {
            Metric.byId("speed");
        } catch (IllegalArgumentException e) {
            assertThat(e.getMessage()).contains(Metric.GLOSSARY);
            return;
        }
        throw new AssertionError("an unknown metric was accepted");
    }
}
