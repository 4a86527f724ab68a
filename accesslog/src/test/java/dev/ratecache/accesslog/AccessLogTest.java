package dev.ratecache.accesslog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Reading a whole log: order in time, and what is wrong with a log that cannot be replayed. */
class AccessLogTest {
    private static final OffsetDateTime T0 = OffsetDateTime.parse("2026-11-20T10:00:00+01:00");

    @TempDir
    Path dir;

    @Test
    void timesKeepTheOffsetTheyWereLoggedWith() throws Exception {
        ParsedLog log = Logs.read(Logs.fixture("midnight.log"), LogFormat.COMBINED);

        assertThat(log.requests()).filteredOn(r -> r.line() == 3).singleElement()
                .satisfies(r -> assertThat(r.time().getOffset()).isEqualTo(ZoneOffset.UTC));
        assertThat(log.requests()).filteredOn(r -> r.line() != 3)
                .allSatisfy(r -> assertThat(r.time().getOffset()).isEqualTo(ZoneOffset.ofHours(1)));
    }

    @Test
    void aLogAcrossMidnightDaysAndOffsetsIsOrderedByInstantKeepingFileOrderOnTies() throws Exception {
        List<String> lines = Files.readAllLines(Logs.fixture("midnight.log"));
        List<Long> byInstant = new ArrayList<>();
        // The expected order, worked out from the lines' own times rather than written down.
        List<Long> numbers = new ArrayList<>();
        for (long n = 1; n <= lines.size(); n++) {
            numbers.add(n);
        }
        numbers.sort(java.util.Comparator.comparing(n -> OffsetDateTime.parse(
                lines.get((int) (n - 1)).replaceAll(".*\\[(.*)\\].*", "$1"), LogTimes.LOCAL).toInstant()));
        byInstant.addAll(numbers);

        ParsedLog log = Logs.read(Logs.fixture("midnight.log"), LogFormat.COMBINED);

        assertThat(log.requests()).extracting(LoggedRequest::line).containsExactlyElementsOf(byInstant);
        // The fixture has two lines at the same instant in different offsets (lines 3 and 5), and the
        // file order differs from the time order, or this test would prove nothing.
        assertThat(byInstant).isNotEqualTo(numbers.stream().sorted().toList());
        assertThat(byInstant.indexOf(3L)).isEqualTo(byInstant.indexOf(5L) - 1);
    }

    @Test
    void badLinesUnderTheLimitAreCountedWithTheFirstFiveLineNumbers() throws Exception {
        List<String> lines = new ArrayList<>();
        List<Long> bad = List.of(4L, 50L, 51L, 300L, 301L, 700L, 999L);
        for (long n = 1; n <= 1000; n++) {
            lines.add(bad.contains(n) ? "torn line " + n : Logs.combined("192.0.2.1", T0.plusSeconds(n), "GET", "/" + n));
        }
        ParsedLog log = Logs.read(Logs.write(dir.resolve("access.log"), lines), LogFormat.COMBINED);

        assertThat(log.lines()).isEqualTo(lines.size());
        assertThat(log.bad().count()).isEqualTo(bad.size());
        assertThat(log.bad().firstLines()).containsExactlyElementsOf(bad.subList(0, BadLines.REPORTED));
        assertThat(log.requests()).hasSize(lines.size() - bad.size());
    }

    @Test
    void badLinesOverTheLimitFailInOneLineNamingTheFormatAndAShortenedExample() throws Exception {
        String garbage = "garbage " + "x".repeat(300);
        List<String> lines = new ArrayList<>();
        for (int n = 1; n <= 40; n++) {
            lines.add(n % 10 == 3 || n % 10 == 6 || n % 10 == 9 ? garbage : Logs.combined("192.0.2.1", T0.plusSeconds(n), "GET", "/"));
        }
        long badCount = lines.stream().filter(garbage::equals).count();
        Path file = Logs.write(dir.resolve("access.log"), lines);

        assertThatThrownBy(() -> Logs.read(file, LogFormat.COMBINED)).isInstanceOf(AccessLogException.class)
                .hasMessageStartingWith(file + ": " + badCount + " of 40 lines ("
                        + String.format(Locale.ROOT, "%.1f", 100.0 * badCount / 40) + " %) are not nginx combined (limit 1 %); line 3: \"garbage xxx")
                .hasMessageNotContaining("\n")
                .satisfies(e -> assertThat(e.getMessage().substring(e.getMessage().indexOf("line 3: \"") + 9))
                        .hasSizeLessThanOrEqualTo(AccessLog.EXAMPLE_CHARS + 1).endsWith("...\""));
    }

    @Test
    void theBadLineLimitCanBeRaised() throws Exception {
        List<String> lines = List.of(Logs.combined("192.0.2.1", T0, "GET", "/"), "torn",
                Logs.combined("192.0.2.1", T0.plusSeconds(1), "GET", "/"));
        Path file = Logs.write(dir.resolve("access.log"), lines);

        assertThatThrownBy(() -> Logs.read(file, LogFormat.COMBINED)).isInstanceOf(AccessLogException.class);
        assertThat(AccessLog.read(file, LogFormat.COMBINED, new ReadOptions(50)).bad().count()).isEqualTo(1);
    }

    @Test
    void blankLinesAreNeitherRequestsNorBad() throws Exception {
        Path file = Logs.write(dir.resolve("access.log"), List.of("", Logs.combined("192.0.2.1", T0, "GET", "/"), "  ",
                Logs.combined("192.0.2.1", T0.plusSeconds(1), "GET", "/"), ""));

        ParsedLog log = Logs.read(file, LogFormat.AUTO);

        assertThat(log.lines()).isEqualTo(2);
        assertThat(log.bad().count()).isZero();
        assertThat(log.requests()).extracting(LoggedRequest::line).containsExactly(2L, 4L);
    }

    @Test
    void anEmptyLogFailsSayingItIsEmpty() throws Exception {
        Path empty = Files.createFile(dir.resolve("empty.log"));
        Path blank = Files.writeString(dir.resolve("blank.log"), "\n\n  \n");
        Path emptyGzip = Logs.gzip(empty, dir.resolve("empty.log.gz"));

        for (Path file : List.of(empty, blank, emptyGzip)) {
            assertThatThrownBy(() -> Logs.read(file, LogFormat.AUTO)).isInstanceOf(AccessLogException.class)
                    .hasMessage(file + ": the log is empty");
        }
    }

    @Test
    void aMissingFileFailsSayingSo() {
        Path missing = dir.resolve("nope.log");

        assertThatThrownBy(() -> Logs.read(missing, LogFormat.AUTO)).isInstanceOf(AccessLogException.class)
                .hasMessage(missing + ": no such file");
    }

    @Test
    void aDirectoryFailsSayingItIsNoLog() {
        assertThatThrownBy(() -> Logs.read(dir, LogFormat.AUTO)).isInstanceOf(AccessLogException.class)
                .hasMessage(dir + ": is a directory, not an access log");
    }

    @Test
    void aFileWithoutReadPermissionFailsSayingSo() throws Exception {
        Path file = Logs.write(dir.resolve("secret.log"), List.of(Logs.combined("192.0.2.1", T0, "GET", "/")));
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("---------"));
        assumeThat(Files.isReadable(file)).as("root reads any file").isFalse();

        assertThatThrownBy(() -> Logs.read(file, LogFormat.AUTO)).isInstanceOf(AccessLogException.class)
                .hasMessage(file + ": cannot be read (permission denied)");
    }

    @Test
    void aBinaryFileIsQuotedWithWhatIsNotPrintableEscaped() throws Exception {
        byte[] elf = {0x7f, 'E', 'L', 'F', 2, 1, 1, 0, (byte) 0xff, (byte) 0xfe, 0x1b, '[', '2', 'J', '\n', 0, 0};
        Path file = Files.write(dir.resolve("a.out"), elf);

        assertThatThrownBy(() -> Logs.read(file, LogFormat.AUTO)).isInstanceOf(AccessLogException.class)
                .hasMessageContaining("line 1: \"\\x7fELF\\x02\\x01\\x01\\x00\\ufffd\\ufffd\\x1b[2J\"")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContainPattern("[\\p{Cntrl}\ufffd]"));
    }

    @Test
    void aTruncatedGzipFailsInOneLine() throws Exception {
        Path gz = Logs.gzip(Logs.fixture("combined.log"), dir.resolve("whole.gz"));
        byte[] bytes = Files.readAllBytes(gz);
        Path cut = Files.write(dir.resolve("cut.gz"), java.util.Arrays.copyOf(bytes, bytes.length / 2));

        assertThatThrownBy(() -> Logs.read(cut, LogFormat.COMBINED)).isInstanceOf(AccessLogException.class)
                .hasMessageStartingWith(cut + ": cannot be read").hasMessageNotContaining("\n");
    }

    @Test
    void aLogWithOneRequestIsReadLeavingTheMinimumToItsUse() throws Exception {
        Path file = Logs.write(dir.resolve("one.log"), List.of(Logs.combined("192.0.2.1", T0, "GET", "/")));

        assertThat(Logs.read(file, LogFormat.AUTO).requests()).hasSize(1);
    }
}
