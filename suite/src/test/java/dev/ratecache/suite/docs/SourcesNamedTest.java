package dev.ratecache.suite.docs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.suite.Repo;
import dev.ratecache.suite.matrix.Source;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import org.junit.jupiter.api.Test;

/**
 * The README and docs/reproductions.md name every source as the code does (matrix/Source, which
 * the reports name them from): a link or year changed in one place fails here until the pages agree.
 */
class SourcesNamedTest {
    @Test
    void theReadmeAndTheReproductionsPageNameEachSourceWithItsAuthorYearAndLink() throws Exception {
        for (String page : new String[] {"README.md", "docs/reproductions.md"}) {
            String text = Files.readString(Repo.root().resolve(page), StandardCharsets.UTF_8);
            for (Source s : Source.values()) {
                String row = text.lines().filter(l -> l.startsWith("| " + s.seed())).findFirst().orElse("");
                assertThat(row).as(page + ": seed " + s.seed()).contains(s.link()).contains(s.author())
                        .contains(" " + s.year() + " ").contains(s.title().replaceFirst(" \\(.*", ""));
            }
        }
    }
}
