package dev.ratecache.suite.cli;

import static dev.ratecache.suite.cli.RefusedRows.refused;
import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.testkit.TestDirs;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The second probe of bad input, as a new user would try it, on every command: each row is one
 * input that lost data, failed in silence, crashed, hung, took long to refuse, printed a control
 * byte or a password, or did not say what was wrong. Each is refused in one line, exit 2, before
 * anything starts, with no control byte on the terminal. A unit test: the origin check connects to
 * a port nothing listens on, which binds none.
 */
class BadInputSecondProbeTest {
    private static final Path DIR = TestDirs.fresh(BadInputSecondProbeTest.class, "files");

    private final CommandRun cli = new CommandRun();

    static Stream<Arguments> refusedInput() {
        Path tiers = write("tiers.txt", "free 1 2 nodelay @/dev/zero\n");
        Path bigChecks = sized("checks-2mib.txt", (2L << 20));
        Path aFile = write("a-file.txt", "mine\n");
        Path statusInWords = write("status-in-words.log", jsonLines("\"two hundred\""));
        String spaced = DIR.resolve("sp ace").toString();
        return Stream.of(
                // 1. Output folders that are no folder of their own.
                refused("results folder empty, for advise (the current folder)", List.of("advise", "no-such.log",
                        "--results", ""), "--results '' names no folder (it would be the current one): give the"
                                + " folder to write to, e.g. --results out"),
                refused("results folder empty, for a run", List.of("--results", "", "--dry-run"),
                        "--results '' names no folder"),
                refused("results folder blank, for up", List.of("up", "--results", " "), "--results ' ' names no folder"),
                refused("results folder the filesystem's root", List.of("--results", "/", "--dry-run"),
                        "--results / is the filesystem's root: give a folder of its own to write to"),
                // 3. Special files: a device never ends.
                refused("checks from a device", List.of("--assert-file", "/dev/zero", "--dry-run"),
                        "--assert-file /dev/zero is not a regular file (a device, a pipe or a socket), which may"
                                + " never end: give a file, or copy what it gives into one"),
                refused("checks past the most read", List.of("--assert-file", bigChecks.toString(), "--dry-run"),
                        "--assert-file " + bigChecks + " is larger than 1 MiB, the most read: give a smaller file"),
                refused("checks from a folder", List.of("--assert-file", DIR.toString(), "--dry-run"),
                        "--assert-file " + DIR + " is a directory, not a file"),
                refused("tiers from a device", List.of("--limit-key", "header:X-Api-Key", "--tiers", "/dev/zero",
                        "--dry-run"), "--tiers /dev/zero is not a regular file (a device, a pipe or a socket)"),
                refused("a tier's keys from a device", List.of("--limit-key", "header:X-Api-Key", "--tiers",
                        tiers.toString(), "--dry-run"), "--tiers " + tiers + ":1: the key file /dev/zero is not a"
                                + " regular file"),
                refused("a certificate from a device", List.of("--tls", "--tls-cert", "/dev/zero", "--tls-key",
                        "/dev/zero", "--dry-run"), "--tls-cert /dev/zero is not a regular file"),
                refused("advice on a device", List.of("advise", "/dev/zero"),
                        "/dev/zero is not a regular file (a device, a pipe or a socket)"),
                refused("a replay of a device", List.of("replay", "/dev/zero", "--dry-run"),
                        "/dev/zero is not a regular file (a device, a pipe or a socket)"),
                // 5. A path nginx's config cannot take, refused by the dry run as by the run.
                refused("results folder with a space", List.of("--results", spaced, "--dry-run"),
                        "--results '" + spaced + "' holds a space, which the tiers' configs cannot take in a path"),
                refused("results folder with a space, for up", List.of("up", "--results", spaced),
                        "--results '" + spaced + "' holds a space"),
                // 6. Control bytes and secrets: escaped, masked, one line.
                refused("results folder with an escape sequence, for down", List.of("down", "--results",
                        DIR.resolve("x\u001b[31my").toString()), "x\\x1b[31my' holds a control character"),
                refused("render folder with an escape sequence", List.of("render", DIR.resolve("x\u001b[2Jx").toString()),
                        "DIR '" + DIR + "/x\\x1b[2Jx' holds a control character (a line break, an escape): give a path"
                                + " without one"),
                refused("advice folder with an escape sequence", List.of("advise", "no-such.log", "--results",
                        DIR.resolve("a\u001bb").toString()), "a\\x1bb' holds a control character"),
                refused("results folder with a line break", List.of("--results", DIR.resolve("a\nb").toString(),
                        "--dry-run"), "a\\x0ab' holds a control character"),
                refused("plan with a line break", List.of("--plan", "a\nb.jmx", "--dry-run"),
                        "--plan a\\x0ab.jmx is not a .jmx file"),
                refused("certificate with a line break", List.of("--tls", "--tls-cert", DIR.resolve("c\nd").toString(),
                        "--tls-key", DIR.resolve("k").toString(), "--dry-run"), "c\\x0ad is not a readable file"),
                refused("log with a line break", List.of("advise", DIR.resolve("no\nsuch.log").toString()),
                        "no\\x0asuch.log: no such file"),
                refused("quota with a line break after a window too long", List.of("--quota", "5/9999999s\n"),
                        "'5/9999999s\\x0a' is not a quota: its window must be from 1 s to 31 days (2678400s; got"
                                + " 9999999s)"),
                refused("load host with a password, masked", List.of("--load-hosts", "admin:pw@127.0.0.1:20003",
                        "--listen", "127.0.0.2", "--dry-run"), "--load-hosts takes HOST[:PORT],... (got '***@127.0.0.1:20003')"),
                // 7. Messages that say what is wrong.
                refused("quota of none", List.of("--quota", "0/m"),
                        "'0/m' is not a quota: N must be a whole number from 1 to 999999999 (got 0)"),
                refused("quota past the most", List.of("--quota", "99999999999/d"),
                        "'99999999999/d' is not a quota: N must be a whole number from 1 to 999999999 (got 99999999999)"),
                refused("two experiments named", List.of("reproduce", "fast-origin", "fast-origin"),
                        "run-tests.sh: reproduce takes NAME at most, and no more arguments: drop 'fast-origin'\n"),
                refused("an argument to a command that takes none", List.of("examples", "extra"),
                        "examples takes no arguments, only flags (got 'extra')"),
                refused("a JSON log whose status is in words", List.of("advise", statusInWords.toString(),
                        "--log-format", "json:time=t,client=c,method=m,uri=u,status=s"),
                        statusInWords + ": 3 of 3 lines (100.0 %) are not"),
                refused("down told a file for its results folder", List.of("down", "--results", aFile.toString()),
                        "--results " + aFile + " is a file, not a folder"),
                // 2. An origin that does not answer, refused by the dry run as by the run (port 1: nothing listens).
                refused("an origin nothing answers at", List.of("--origin", "http://127.0.0.1:1", "--dry-run",
                        "--profile", "quick"), "--origin http://127.0.0.1:1 does not answer (Connection refused):"
                                + " start your origin there, or give the URL it listens on"),
                refused("an RMI keystore that is a folder", List.of("--load-hosts", "127.0.0.1:20003", "--listen",
                        "127.0.0.2", "--rmi-keystore", DIR.toString(), "--dry-run"),
                        "--rmi-keystore " + DIR + " is a directory, not a file"),
                refused("an origin nothing answers at, for up", List.of("up", "--origin", "http://127.0.0.1:1"),
                        "--origin http://127.0.0.1:1 does not answer (Connection refused)"),
                refused("an origin nothing answers at, for peak", List.of("peak", "--origin", "http://127.0.0.1:1",
                        "--url", "/items/1"), "--origin http://127.0.0.1:1 does not answer (Connection refused)"));
    }

    @ParameterizedTest(name = "{0} is refused: {1}")
    @MethodSource("refusedInput")
    void badInputIsRefusedInOneLineSayingWhy(String what, List<String> args, List<String> said) {
        assertThat(cli.run(args.toArray(String[]::new))).as(cli.err()).isEqualTo(2);

        assertThat(cli.err()).contains(said).doesNotContain("Exception", "\u001b", "pw@");
        assertThat(cli.out()).doesNotContain("\u001b", "would run", "run folder");
        assertThat(cli.err().lines().filter(l -> !l.startsWith("Try ./run-tests.sh --help"))).hasSize(1);
    }

    /** The current folder or the root as DIR: render would have cleared front/ there before writing. */
    static Stream<Arguments> noFolderOfItsOwn() {
        return Stream.of(
                refused("empty", List.of(""), "DIR '' names no folder (it would be the current one)"),
                refused("blank", List.of(" "), "DIR ' ' names no folder"),
                refused("the root", List.of("/"), "DIR / is the filesystem's root: give a folder of its own"));
    }

    @ParameterizedTest(name = "render into {0} is refused")
    @MethodSource("noFolderOfItsOwn")
    void renderWritesIntoNoFolderButItsOwn(String what, List<String> args, List<String> said) {
        assertThat(cli.run("render", args.get(0))).isEqualTo(2);

        assertThat(cli.err()).contains(said);
        assertThat(cli.out()).isEmpty();
    }

    @Test
    void renderDeletesNoFolderItDidNotWrite(TestInfo test) throws IOException {
        Path dir = TestDirs.fresh(test);
        Path keep = Files.createDirectories(dir.resolve("front")).resolve("keep.txt");
        Files.writeString(keep, "precious\n");

        assertThat(cli.run("render", dir.toString())).isEqualTo(2);

        assertThat(cli.err()).contains("DIR " + dir + " holds front, which render did not write there ("
                + RenderCommand.MARK + " does not list it), and render replaces what it writes: move it away, or give"
                + " an empty or new folder");
        assertThat(keep).hasContent("precious");
        assertThat(dir.resolve("back")).doesNotExist();
    }

    @Test
    void renderReplacesWhatItWroteAndNothingItDidNot(TestInfo test) throws IOException {
        Path dir = TestDirs.fresh(test);
        assertThat(cli.run("render", dir.toString())).as(cli.err()).isZero();
        assertThat(dir.resolve(RenderCommand.MARK)).content().contains("\nback\nfront\n");
        Path tls = Files.createDirectories(dir.resolve("tls")).resolve("mine.key");
        Files.writeString(tls, "mine\n");

        assertThat(cli.run("render", dir.toString())).isEqualTo(2);
        assertThat(cli.err()).contains("holds tls, which render did not write there");
        assertThat(tls).hasContent("mine");

        Files.delete(tls);
        Files.delete(dir.resolve("tls"));
        Path stale = Files.writeString(dir.resolve("front/stale.conf"), "old\n");
        assertThat(cli.run("render", dir.toString())).as(cli.err()).isZero();
        assertThat(stale).doesNotExist();
    }

    @Test
    void anArgumentOfAHundredThousandCharactersIsRefusedAtOnceAndCutShort() {
        String huge = "http://" + "a".repeat(100_000);
        long started = System.nanoTime();

        assertThat(cli.run("--origin", huge)).isEqualTo(2);

        assertThat((System.nanoTime() - started) / 1e9).isLessThan(2.0);
        assertThat(cli.err()).contains("run-tests.sh: argument 2 is 100007 characters long, past the longest taken"
                + " (4096, a path's longest): 'http://aaaa").contains("\u2026(100007 chars)'");
        assertThat(cli.err().length()).isLessThan(600);
    }

    @Test
    void aLongCheckOrJMeterPropertyIsShownCutShort() {
        String long4000 = "x".repeat(4000);

        assertThat(cli.run("--assert", long4000, "--dry-run", "--profile", "quick")).isEqualTo(2);
        assertThat(cli.err()).contains("malformed check 'xxx").contains("\u2026(4000 chars)'");
        assertThat(cli.err().length()).isLessThan(1000);

        assertThat(cli.run("-Jusers=" + long4000, "--dry-run", "--profile", "quick")).isEqualTo(2);
        assertThat(cli.err()).contains("-Jusers=xxx").contains("\u2026(4000 chars): users must be a whole number");
        assertThat(cli.err().length()).isLessThan(1000);
    }

    @Test
    void maskingALongValueTakesLinearTime() {
        // Tried from every position of a word, the user-info pattern took seconds at 40,000 characters.
        String word = "a".repeat(4096);
        long started = System.nanoTime();
        for (int i = 0; i < 20; i++) {
            dev.ratecache.suite.switches.OriginUrl.masked(word);
        }
        assertThat((System.nanoTime() - started) / 1e9).isLessThan(1.0);
    }

    private static String jsonLines(String status) {
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < 3; i++) {
            s.append("{\"t\":\"2026-11-20T10:00:0").append(i).append("Z\",\"c\":\"198.51.100.1\",\"m\":\"GET\",\"u\":\"/a\",")
                    .append("\"s\":").append(status).append("}\n");
        }
        return s.toString();
    }

    private static Path write(String name, String text) {
        try {
            return Files.writeString(DIR.resolve(name), text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Path sized(String name, long bytes) {
        Path file = DIR.resolve(name);
        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
            f.setLength(bytes);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return file;
    }
}
