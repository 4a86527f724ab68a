package dev.ratecache.suite.docs;

import static org.assertj.core.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * A committed file that is generated: the test renders it afresh and fails at the first line that
 * differs, naming the command that writes it again. With {@code -Ddocs.write=true} that command
 * writes the file instead, so a maintainer never edits it by hand and a test never rewrites it by itself.
 */
public final class Committed {
    private Committed() {}

    /** Whether this run writes the generated files instead of checking them. */
    public static boolean writing() {
        return Boolean.getBoolean("docs.write");
    }

    /** Checks (or, when {@link #writing()}, writes) {@code file} to hold exactly {@code expected}. */
    public static void page(Path file, String expected, String regenerate) throws IOException {
        if (writing()) {
            Files.createDirectories(file.getParent());
            Files.writeString(file, expected, StandardCharsets.UTF_8);
            return;
        }
        if (!Files.isRegularFile(file)) {
            fail(file + " is missing: write it with " + regenerate);
        }
        List<String> have = Files.readString(file, StandardCharsets.UTF_8).lines().toList();
        List<String> want = expected.lines().toList();
        for (int i = 0; i < Math.max(have.size(), want.size()); i++) {
            String h = i < have.size() ? have.get(i) : "(end of file)";
            String w = i < want.size() ? want.get(i) : "(end of file)";
            if (!h.equals(w)) {
                fail(file.getFileName() + " differs from what the code renders, from line " + (i + 1) + ":\n  committed: "
                        + h + "\n  rendered:  " + w + "\nWrite it again with " + regenerate);
            }
        }
    }

    /**
     * Checks (or writes) the block between {@code <!-- BEGIN generated NAME -->} and
     * {@code <!-- END generated NAME -->} of a hand-written page: the rest of the page stays the writer's.
     */
    public static void block(Path file, String name, String expected, String regenerate) throws IOException {
        String begin = "<!-- BEGIN generated " + name + ": " + regenerate + " -->\n";
        String end = "<!-- END generated " + name + " -->";
        String page = Files.readString(file, StandardCharsets.UTF_8);
        int from = page.indexOf("<!-- BEGIN generated " + name + ":");
        int to = page.indexOf(end);
        if (from < 0 || to < from) {
            fail(file.getFileName() + " has no block '" + name + "': put the two lines " + begin.strip() + " and " + end
                    + " where it goes, then write it with " + regenerate);
        }
        String rewritten = page.substring(0, from) + begin + expected + page.substring(to);
        page(file, rewritten, regenerate);
    }
}
