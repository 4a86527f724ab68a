package dev.ratecache.suite.docs;

import dev.ratecache.suite.Repo;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.util.List;

/**
 * docs/your-config.md's example: the config in its first {@code nginx} block and the lines its
 * first {@code text} block quotes from the explanation. The docs' commands run on that config
 * (DocFixtures writes it as nginx.conf), and ExplainStackTest checks the quoted lines.
 */
public final class YourConfigPage {
    private YourConfigPage() {}

    /** The page's example config. */
    public static String example() {
        return block("```nginx\n");
    }

    /** The explanation's lines the page quotes, without their indentation. */
    public static List<String> quoted() {
        return block("```text\n").lines().map(String::strip).filter(l -> !l.isEmpty()).toList();
    }

    private static String block(String opening) {
        String page;
        try {
            page = Files.readString(Repo.root().resolve("docs/your-config.md"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        int start = page.indexOf(opening);
        if (start < 0) {
            throw new IllegalStateException("docs/your-config.md has no " + opening.strip() + " block");
        }
        start += opening.length();
        return page.substring(start, page.indexOf("```", start));
    }
}
