package dev.ratecache.suite.switches;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.ratecache.accesslog.Printable;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Function;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The switches' value converters and the tiers file, fuzzed (docs/fuzzing.md): whatever a flag's
 * value or a --tiers file holds, it is taken or refused with the converter's own line, which quotes
 * the value escaped (the command line prints it as it is: a line break in it would make two lines,
 * an escape sequence would reach the terminal). Seeds and past findings:
 * src/test/resources/dev/ratecache/suite/switches/SwitchesFuzzTestInputs/.
 */
public class SwitchesFuzzTest {
    @TempDir
    static Path dir;

    @FuzzTest
    void limitKey(byte[] value) {
        convert(LimitKey::parse, value);
    }

    @FuzzTest
    void limitMode(byte[] value) {
        convert(LimitMode::parse, value);
    }

    @FuzzTest
    void addressCeiling(byte[] value) {
        convert(AddressCeiling::parse, value);
    }

    @FuzzTest
    void originUrl(byte[] value) {
        convert(OriginUrl::parse, value);
    }

    /** An enum's value, as every FlagValue.oneOf flag reads it. */
    @FuzzTest
    void oneOf(byte[] value) {
        convert(text -> FlagValue.oneOf(StaleMode.class, "a stale mode").convert(text), value);
    }

    /** Every int flag's converter. */
    @FuzzTest
    void wholeNumber(byte[] value) {
        convert(text -> new WholeNumber.Converter().convert(text), value);
    }

    /** --allow's networks: what valid() takes, network() and host() must handle. */
    @FuzzTest
    void cidr(byte[] value) {
        String text = new String(value, StandardCharsets.UTF_8);
        if (Cidr.valid(text)) {
            Cidr.network(text);
            Cidr.contains(text, Cidr.host(text).split("/")[0]);
        }
    }

    @FuzzTest
    void tiersFile(byte[] file) throws Exception {
        Path tiers = Files.write(dir.resolve("tiers.txt"), file);
        try {
            TierMembership.of(TiersFile.read(tiers));
        } catch (TiersFile.Malformed refused) {
            assertThat(Printable.isPrintable(refused.getMessage())).as("printable, one line: %s",
                    Printable.escape(refused.getMessage())).isTrue();
        }
    }

    private static void convert(Function<String, ?> converter, byte[] value) {
        try {
            converter.apply(new String(value, StandardCharsets.UTF_8));
        } catch (IllegalArgumentException | CommandLine.TypeConversionException refused) {
            refusedInOneLine(refused, "");
        }
    }

    /**
     * A parser's documented refusal: an IllegalArgumentException (or picocli's conversion one) of
     * its own, not a number parser's left uncaught, starting with {@code start}, on one printable line.
     */
    public static void refusedInOneLine(RuntimeException refused, String start) {
        assertThat(refused).isNotInstanceOf(NumberFormatException.class);
        assertThat(refused.getMessage()).startsWith(start);
        assertThat(Printable.isPrintable(refused.getMessage())).as("printable, one line: %s",
                Printable.escape(refused.getMessage())).isTrue();
    }
}
