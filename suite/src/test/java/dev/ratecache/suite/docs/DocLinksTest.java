package dev.ratecache.suite.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** Every link from README.md and docs/ to a file of the repository leads to one: a moved page breaks this test, not a reader's click. */
class DocLinksTest {
    private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)\\)");

    @Test
    void everyLinkToAFileOfTheRepositoryLeadsToOne() throws IOException {
        List<String> broken = new ArrayList<>();
        int links = 0;
        for (Path page : DocCommands.pages()) {
            Matcher m = LINK.matcher(Files.readString(page, StandardCharsets.UTF_8));
            while (m.find()) {
                String target = m.group(1).replaceFirst("#.*", "");
                if (target.isEmpty() || target.matches("^[a-z]+:.*")) {
                    continue;
                }
                links++;
                if (!Files.exists(page.getParent().resolve(target))) {
                    broken.add(page.getFileName() + " -> " + m.group(1));
                }
            }
        }
        assertThat(links).isGreaterThan(20);
        assertThat(broken).as("links to files that are not there").isEmpty();
    }
}
