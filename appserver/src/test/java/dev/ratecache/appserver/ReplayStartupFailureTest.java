package dev.ratecache.appserver;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A paths file the replay mode cannot use stops the origin with one line naming the file, what is
 * wrong and where, and what the file must hold. Each test starts the application in this JVM (FailedStart).
 */
class ReplayStartupFailureTest {

    static final String HEADER = "path,requests,delay_ms,body_bytes\n";
    static final String ACCEPTED = " (accepted: a CSV file with the header line path,requests,delay_ms,body_bytes";

    @TempDir
    Path directory;

    static String stderrOfFailedStart(Path file) {
        return StartupFailureTest.stderrOfFailedStart("--origin.replay.paths-file=" + file)
                .stream().reduce((a, b) -> a + "\n" + b).orElse("");
    }

    @Test
    void missingFileIsRefused() {
        Path missing = directory.resolve("no-such-paths.csv");

        assertThat(stderrOfFailedStart(missing))
                .startsWith("origin: invalid configuration: origin.replay.paths-file=" + missing
                        + ": cannot be read: no such file" + ACCEPTED)
                .doesNotContain("\n");
    }

    @ParameterizedTest(name = "{0} is refused")
    @CsvSource(delimiter = '|', quoteCharacter = '`', textBlock = """
            bad header          | path,count,delay_ms,body_bytes\\n/a,1,,5\\n     | line 1: the header is path,count,delay_ms,body_bytes but must be path,requests,delay_ms,body_bytes
            empty file          | ``                                              | the file is empty, without even the header line
            negative bytes      | HEADER/a,1,,5\\n/b,1,10,-5\\n                   | line 3: body_bytes must be a whole number, 0 or more, found '-5'
            delay not a number  | HEADER/a,1,fast,5\\n                            | line 2: delay_ms must be empty or a number of milliseconds, 0 or more, found 'fast'
            path without slash  | HEADER/a,1,,5\\nb,1,,5\\n                       | line 3: path must start with / and have no query, found 'b'
            path with a query   | HEADER/a?x=1,1,,5\\n                            | line 2: path must start with / and have no query, found '/a?x=1'
            path listed twice   | HEADER/a,1,,5\\n/a,2,,6\\n                      | line 3: path /a is listed twice
            missing field       | HEADER/a,1,5\\n                                 | line 2: 4 fields expected, found 3
            unclosed quote      | HEADER/a,1,,5\\n"/b,1,,5\\n                     | not valid CSV: (startline 3) EOF reached before encapsulated token finished
            """)
    void malformedFileIsRefusedInOneLineSayingWhereAndWhatIsAccepted(String what, String content, String problem)
            throws IOException {
        Path file = directory.resolve("paths.csv");
        Files.writeString(file, content.replace("HEADER", HEADER).replace("\\n", "\n"));

        assertThat(stderrOfFailedStart(file))
                .startsWith("origin: invalid configuration: origin.replay.paths-file=" + file + ": " + problem + ACCEPTED)
                .doesNotContain("\n");
    }
}
