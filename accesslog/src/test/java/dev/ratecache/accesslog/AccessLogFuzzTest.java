package dev.ratecache.accesslog;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/**
 * The access-log reader, fuzzed (docs/fuzzing.md): whatever bytes a user's log holds, reading it
 * either gives requests or refuses with {@link AccessLogException} in one printable line. Any
 * other exception, or a message that carries the file's control characters to the terminal, is a
 * finding. The unit lane runs the seeds and past findings under
 * src/test/resources/dev/ratecache/accesslog/AccessLogFuzzTestInputs/; {@code ./run-tests.sh fuzz}
 * fuzzes.
 */
class AccessLogFuzzTest {
    private static final LogFormat MAPPED = LogFormat.parse("json:time=ts,client=ip,method=verb,uri=path,status=code,"
            + "bytes=size,upstream_time=upstream");

    // One file, rewritten for each input: the reader takes a path, as the commands give it.
    @TempDir
    static Path dir;

    @FuzzTest
    void combined(byte[] log) {
        read(log, LogFormat.COMBINED, ReadOptions.defaults());
    }

    @FuzzTest
    void common(byte[] log) {
        read(log, LogFormat.COMMON, ReadOptions.defaults());
    }

    @FuzzTest
    void suiteJson(byte[] log) {
        read(log, LogFormat.SUITE_JSON, ReadOptions.defaults());
    }

    @FuzzTest
    void jsonMapped(byte[] log) {
        read(log, MAPPED, ReadOptions.defaults());
    }

    @FuzzTest
    void jsonMappedWithKeyField(byte[] log) {
        read(log, MAPPED, ReadOptions.defaults().keyField("auth.key"));
    }

    /** Auto's detection, with a bad-line limit that lets the whole log be read past its first bad line. */
    @FuzzTest
    void auto(byte[] log) {
        read(log, LogFormat.AUTO, new ReadOptions(100));
    }

    /** --log-format's value, as the shell hands it over. */
    @FuzzTest
    void logFormat(byte[] spelling) {
        try {
            LogFormat.parse(new String(spelling, StandardCharsets.UTF_8));
        } catch (IllegalArgumentException refused) {
            assertOneLine(refused.getMessage());
        }
    }

    private static void read(byte[] log, LogFormat format, ReadOptions options) {
        try {
            Path file = Files.write(dir.resolve("access.log"), log);
            AccessLog.read(file, format, options);
        } catch (AccessLogException refused) {
            assertOneLine(refused.getMessage());
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    static void assertOneLine(String message) {
        assertThat(message).isNotBlank();
        assertThat(Printable.isPrintable(message)).as("printable, on one line: %s", Printable.escape(message)).isTrue();
    }
}
