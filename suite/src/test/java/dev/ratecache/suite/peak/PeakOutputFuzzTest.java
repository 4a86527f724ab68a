package dev.ratecache.suite.peak;

import static dev.ratecache.suite.switches.SwitchesFuzzTest.refusedInOneLine;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.nio.charset.StandardCharsets;
import java.util.function.Function;

/**
 * The readers of wrk's, h2load's and openssl s_time's output, fuzzed (docs/fuzzing.md): whatever
 * a client printed (another version's, a crash's), reading it gives a result or the one-line
 * refusal each documents, quoting what it read escaped. Seeds and past findings:
 * src/test/resources/dev/ratecache/suite/peak/PeakOutputFuzzTestInputs/.
 */
class PeakOutputFuzzTest {
    @FuzzTest
    void wrk(byte[] output) {
        read(Wrk::parse, output, "not wrk's output");
    }

    @FuzzTest
    void h2load(byte[] output) {
        read(H2load::parse, output, "not h2load's output");
    }

    @FuzzTest
    void sTime(byte[] output) {
        read(STime::parse, output, "not openssl s_time's output");
    }

    private static void read(Function<String, ?> parse, byte[] output, String refusal) {
        try {
            parse.apply(new String(output, StandardCharsets.UTF_8));
        } catch (IllegalArgumentException refused) {
            refusedInOneLine(refused, refusal);
        }
    }
}
