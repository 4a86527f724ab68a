package dev.ratecache.suite.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.suite.Repo;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The pages that list every kind of matrix list exactly MatrixKind's, in its order: a kind added in
 * code and left out of a list (as quotas once was) fails here, naming the page and what it lacks.
 */
class MatrixListDocsTest {
    private static List<String> kinds() {
        return Arrays.stream(MatrixKind.values()).map(MatrixKind::toString).toList();
    }

    private static List<String> listed(String page, Pattern list, String separator) throws IOException {
        Path file = Repo.root().resolve(page);
        Matcher m = list.matcher(Files.readString(file));
        assertThat(m.find()).as("%s has its list of matrices (%s)", page, list.pattern()).isTrue();
        return Arrays.stream(m.group(1).split(Pattern.quote(separator))).map(String::strip).toList();
    }

    @Test
    void conceptsListsEveryMatrixKind() throws IOException {
        assertThat(listed("docs/concepts.md", Pattern.compile("`--matrix ([a-z|]+)`"), "|"))
                .as("docs/concepts.md's --matrix list, against MatrixKind").isEqualTo(kinds());
    }

    @Test
    void theDocsIndexListsEveryMatrixKind() throws IOException {
        assertThat(listed("docs/README.md", Pattern.compile("the matrices \\(([a-z, ]+)\\)"), ","))
                .as("docs/README.md's list of matrices, against MatrixKind").isEqualTo(kinds());
    }
}
