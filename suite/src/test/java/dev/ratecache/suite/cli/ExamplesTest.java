package dev.ratecache.suite.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.suite.Repo;
import dev.ratecache.testkit.TestDirs;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * examples/ is what render writes today: each example is rendered afresh and compared with the
 * committed folder, file by file and line by line, so that a change to a template cannot leave the
 * configs users copy behind. The test never rewrites them: {@code ./run-tests.sh examples} does.
 */
class ExamplesTest {
    private static final String REGENERATE = "write them afresh with ./run-tests.sh examples";

    @Test
    void everyExampleIsWhatRenderWritesToday() throws IOException {
        List<String> drifts = new ArrayList<>();
        for (Example example : Example.values()) {
            Path fresh = TestDirs.fresh(getClass(), example.folder());
            example.render(fresh);
            drift(example.folder(), example.committed(), fresh).ifPresent(drifts::add);
        }
        assertThat(drifts).as("examples that differ from a fresh render (" + REGENERATE + ")").isEmpty();
    }

    @Test
    void aChangedLineIsReportedWithTheLineAndTheCommandThatMendsIt() throws IOException {
        Example example = Example.NGINX_TWO_TIERS;
        Path committed = copy(example.committed(), TestDirs.fresh(getClass(), "edited"));
        Path basics = committed.resolve("front/snippets/shared/basics.conf");
        List<String> lines = new ArrayList<>(Files.readAllLines(basics, StandardCharsets.UTF_8));
        int index = lines.size() - 1;
        String was = lines.get(index);
        lines.set(index, "# edited by hand");
        Files.write(basics, lines, StandardCharsets.UTF_8);
        Path fresh = TestDirs.fresh(getClass(), "edited-fresh");
        example.render(fresh);

        assertThat(drift(example.folder(), committed, fresh)).hasValue("examples/nginx-two-tiers/"
                + "front/snippets/shared/basics.conf, line " + (index + 1) + ":\n  committed: # edited by hand\n"
                + "  rendered:  " + was + "\n" + REGENERATE);
    }

    @Test
    void aFileRenderNoLongerWritesOrAFileItWritesNowIsReported() throws IOException {
        Example example = Example.NGINX_TWO_TIERS;
        Path committed = copy(example.committed(), TestDirs.fresh(getClass(), "files"));
        Files.writeString(committed.resolve("front/snippets/front/gone.conf"), "# from an older template\n");
        Path fresh = TestDirs.fresh(getClass(), "files-fresh");
        example.render(fresh);

        assertThat(drift(example.folder(), committed, fresh)).hasValue("examples/nginx-two-tiers/"
                + "front/snippets/front/gone.conf is committed but no longer rendered\n" + REGENERATE);

        Files.delete(committed.resolve("front/snippets/front/gone.conf"));
        Files.delete(committed.resolve("back/back-end.conf"));
        assertThat(drift(example.folder(), committed, fresh)).hasValue("examples/nginx-two-tiers/"
                + "back/back-end.conf is rendered but not committed\n" + REGENERATE);
    }

    /** Writing an example afresh replaces render's files and keeps the folder's own: README.md, the tiers file. */
    @Test
    void writingAnExampleAfreshKeepsItsReadmeAndInputs() throws IOException {
        Example example = Example.NGINX_KEYS_TIERS;
        Path folder = copy(example.committed(), TestDirs.fresh(getClass(), "afresh"));
        Files.writeString(folder.resolve("front/front-end.conf"), "# stale\n");

        example.render(folder);

        assertThat(folder.resolve("README.md")).hasSameTextualContentAs(example.committed().resolve("README.md"));
        assertThat(folder.resolve("tiers.txt")).hasSameTextualContentAs(example.committed().resolve("tiers.txt"));
        assertThat(drift(example.folder(), example.committed(), folder)).isEmpty();
    }

    /**
     * The configs name nothing of the machine that rendered them: no path of this checkout (the
     * tiers file is named as the folder's own), no key or certificate, the modules of any Debian
     * machine whatever this one has.
     */
    @Test
    void theExamplesNameNoPathOfThisCheckoutAndHoldNoKey() throws IOException {
        String checkout = Repo.root().toString();
        List<String> found = new ArrayList<>();
        try (Stream<Path> files = Files.walk(Repo.root().resolve(Example.FOLDER))) {
            for (Path f : files.filter(Files::isRegularFile).sorted().toList()) {
                String text = Files.readString(f, StandardCharsets.UTF_8);
                if (text.contains(checkout) || text.contains(".tools/") || text.contains("PRIVATE KEY")) {
                    found.add(f.toString());
                }
            }
        }
        assertThat(found).isEmpty();
        assertThat(Example.NGINX_KEYS_TIERS.committed().resolve("front/front-end.conf")).content()
                .contains("--tiers tiers.txt");
        assertThat(Example.NGINX_FLEET_SHARED.committed().resolve("front-1/snippets/shared/lua-init.conf"))
                .content().contains("lua_package_path \"$prefix/conf/lua/?.lua;/usr/share/lua/5.1/?.lua;;\";");
        assertThat(Example.NGINX_TLS.committed().resolve("front/snippets/shared/tls-certificate.conf")).content()
                .contains("ssl_certificate tls/server.pem;\nssl_certificate_key tls/server.key;\n");
        assertThat(Example.NGINX_TLS.committed().resolve("front/tls")).doesNotExist();
        assertThat(Example.NGINX_TLS.committed().resolve("tls")).doesNotExist();
    }

    /**
     * The first difference between an example's {@code committed} folder (render's files in it,
     * not README.md or its inputs) and a {@code fresh} render, in words; empty when they are alike.
     */
    static Optional<String> drift(String name, Path committed, Path fresh) throws IOException {
        TreeSet<String> theirs = renderedFiles(committed);
        TreeSet<String> mine = renderedFiles(fresh);
        TreeSet<String> all = new TreeSet<>(theirs);
        all.addAll(mine);
        for (String file : all) {
            String where = "examples/" + name + "/" + file;
            if (!mine.contains(file)) {
                return Optional.of(where + " is committed but no longer rendered\n" + REGENERATE);
            }
            if (!theirs.contains(file)) {
                return Optional.of(where + " is rendered but not committed\n" + REGENERATE);
            }
            List<String> was = Files.readAllLines(committed.resolve(file), StandardCharsets.UTF_8);
            List<String> now = Files.readAllLines(fresh.resolve(file), StandardCharsets.UTF_8);
            for (int i = 0; i < Math.max(was.size(), now.size()); i++) {
                String a = i < was.size() ? was.get(i) : "(end of file)";
                String b = i < now.size() ? now.get(i) : "(end of file)";
                if (!a.equals(b)) {
                    return Optional.of(where + ", line " + (i + 1) + ":\n  committed: " + a + "\n  rendered:  " + b
                            + "\n" + REGENERATE);
                }
            }
        }
        return Optional.empty();
    }

    private static TreeSet<String> renderedFiles(Path folder) throws IOException {
        try (Stream<Path> files = Files.walk(folder)) {
            return files.filter(Files::isRegularFile).map(folder::relativize).filter(Example::rendered)
                    .map(Path::toString).collect(java.util.stream.Collectors.toCollection(TreeSet::new));
        }
    }

    /** A copy of the folder {@code from} and all below it at {@code to}. */
    static Path copy(Path from, Path to) throws IOException {
        try (Stream<Path> files = Files.walk(from)) {
            for (Path f : files.toList()) {
                Path target = to.resolve(from.relativize(f).toString());
                if (Files.isDirectory(f)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(f, target);
                }
            }
        }
        return to;
    }
}
