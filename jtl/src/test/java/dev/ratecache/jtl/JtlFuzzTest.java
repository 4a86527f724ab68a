package dev.ratecache.jtl;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/**
 * The JTL reader, fuzzed (docs/fuzzing.md): a JTL that JMeter left torn or a user's plan filled
 * oddly either reads, and sums up as the report does, or is refused with an IOException of one
 * line. Seeds and past findings: src/test/resources/dev/ratecache/jtl/JtlFuzzTestInputs/.
 */
class JtlFuzzTest {
    @TempDir
    static Path dir;

    @FuzzTest
    void jtl(byte[] file) throws IOException {
        Path jtl = Files.write(dir.resolve("results.jtl"), file);
        try {
            JtlSummary.of(Jtl.read(jtl));
        } catch (IOException refused) {
            assertThat(refused.getMessage()).isNotBlank().doesNotContainPattern("[\\p{Cntrl}\\p{Zl}\\p{Zp}]");
        }
    }
}
