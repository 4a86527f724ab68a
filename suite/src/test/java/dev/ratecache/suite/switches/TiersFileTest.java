package dev.ratecache.suite.switches;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ratecache.testkit.TestDirs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The --tiers file: what it reads, and the one line (file and line number) for what it refuses. */
class TiersFileTest {

    private static Path write(TestInfo test, String text) throws IOException {
        Path file = TestDirs.fresh(test).resolve("tiers.txt");
        Files.writeString(file, text);
        return file;
    }

    @Test
    void readsTiersWithInlineKeysAKeyFileCommentsAndAnAnonymousTier(TestInfo test) throws Exception {
        Path file = write(test, """
                # name  rate   burst  mode     keys
                free    1      2      nodelay  k-free-1,k-free-2

                pro     50r/s  100    delay=10 @pro-keys.txt
                anonymous 1    0      queue
                """);
        Files.writeString(file.resolveSibling("pro-keys.txt"), "# the paying customers\npro-1\n\n  pro-2  \n");

        List<LimitTier> tiers = TiersFile.read(file);

        assertThat(tiers).containsExactly(
                new LimitTier("free", 1, 2, LimitMode.NODELAY, List.of("k-free-1", "k-free-2")),
                new LimitTier("pro", 50, 100, LimitMode.parse("delay=10"), List.of("pro-1", "pro-2")),
                new LimitTier("anonymous", 1, 0, LimitMode.QUEUE, List.of()));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "too few fields       | free 1 2                       | :1: expected NAME RATE BURST MODE [KEYS]",
            "bad name             | Free! 1 2 nodelay a            | :1: tier name 'Free!' must be",
            "zero rate            | free 0 2 nodelay a             | :1: rate '0' must be a whole number",
            "rate with a unit     | free 1r/m 2 nodelay a          | :1: rate '1r/m' must be",
            "negative burst       | free 1 -2 nodelay a            | :1: burst '-2' must be a whole number",
            "rate past an int     | free 2147483648 2 nodelay a    | :1: rate '2147483648' must be a whole number of requests/s from 1 to 100000,",
            "rate past the most   | free 100001r/s 2 nodelay a     | :1: rate '100001r/s' must be a whole number of requests/s from 1 to 100000,",
            "burst past an int    | free 1 99999999999 nodelay a   | :1: burst '99999999999' must be a whole number from 0 to 1000000",
            "burst past the most  | free 1 1000001 nodelay a       | :1: burst '1000001' must be a whole number from 0 to 1000000",
            "unknown mode         | free 1 2 fast a                | :1: 'fast' is not a limit mode",
            "key with a quote     | free 1 2 nodelay a,b\"c        | :1: key 'b\"c' must be 1 to 256 of",
            "empty key            | free 1 2 nodelay a,,b          | :1: key '' must be",
            "key like a regex     | free 1 2 nodelay ~a            | :1: key '~a' must be",
            "tier without keys    | free 1 2 nodelay               | :1: tier 'free' lists no keys",
            "anonymous with keys  | anonymous 1 2 nodelay a        | :1: the anonymous tier takes every key",
    })
    void aMalformedLineIsRefusedWithItsLineNumber(String what, String line, String said, TestInfo test) throws Exception {
        Path file = write(test, line + "\n");

        assertThatThrownBy(() -> TiersFile.read(file)).isInstanceOf(TiersFile.Malformed.class)
                .hasMessageStartingWith(file.toString()).hasMessageContaining(said).hasMessageNotContaining("\n");
    }

    @Test
    void theLineNumberCountsCommentsAndBlankLines(TestInfo test) throws Exception {
        Path file = write(test, "# tiers\n\nfree 1 2 nodelay a\nfree 5 5 queue b\n");

        assertThatThrownBy(() -> TiersFile.read(file))
                .hasMessage(file + ":4: tier 'free' is already defined on line 3");
    }

    @Test
    void aKeyInTwoTiersIsRefused(TestInfo test) throws Exception {
        Path file = write(test, "free 1 2 nodelay a,b\npro 5 5 queue b\n");

        assertThatThrownBy(() -> TiersFile.read(file))
                .hasMessage(file + ":2: key 'b' is in tier 'free' already: a key belongs to one tier");
    }

    @Test
    void keysThatDifferOnlyInCaseAreRefusedNamingBoth(TestInfo test) throws Exception {
        Path file = write(test, "free 1 2 nodelay a,Pro-1\npro 5 5 queue pro-1\n");

        assertThatThrownBy(() -> TiersFile.read(file)).hasMessage(file + ":2: key 'pro-1' differs from key 'Pro-1'"
                + " (line 1, tier 'free') only in case: nginx's map matches keys ignoring case, so it cannot tell them apart");
    }

    @Test
    void aKeyFilesKeyThatDiffersOnlyInCaseIsNamedWithThatFilesLine(TestInfo test) throws Exception {
        Path file = write(test, "# plans\nfree 1 2 nodelay @free.txt\npro 5 5 queue @pro.txt\n");
        Files.writeString(file.resolveSibling("free.txt"), "f1\nKEY-9\n");
        Files.writeString(file.resolveSibling("pro.txt"), "p1\n\nkey-9\n");
        Path free = file.resolveSibling("free.txt").toAbsolutePath();
        Path pro = file.resolveSibling("pro.txt").toAbsolutePath();

        assertThatThrownBy(() -> TiersFile.read(file)).hasMessage(file + ":3: key 'key-9' (" + pro + ":3) differs from key"
                + " 'KEY-9' (line 2, " + free + ":2, tier 'free') only in case: nginx's map matches keys ignoring case,"
                + " so it cannot tell them apart");
    }

    @Test
    void keysAreExactCaseIncluded(TestInfo test) throws Exception {
        Path file = write(test, "pro 5 5 queue Pro-1,k2\n");

        assertThat(TierMembership.of(TiersFile.read(file)).tierOf("Pro-1")).isEqualTo("pro");
        assertThat(TierMembership.of(TiersFile.read(file)).tierOf("pro-1")).isEqualTo(LimitTier.ANONYMOUS);
        assertThat(TierMembership.of(TiersFile.read(file)).tierOf("K2")).isEqualTo(LimitTier.ANONYMOUS);
    }

    @Test
    void aKeyOver256BytesIsRefused(TestInfo test) throws Exception {
        Path file = write(test, "free 1 2 nodelay " + "k".repeat(257) + "\n");

        assertThatThrownBy(() -> TiersFile.read(file)).hasMessageContaining(":1: key 'kkkk").hasMessageContaining("...'");
    }

    @Test
    void aMissingKeyFileIsNamedWithTheLineThatNamesIt(TestInfo test) throws Exception {
        Path file = write(test, "free 1 2 nodelay a\npro 5 5 queue @nowhere.txt\n");

        assertThatThrownBy(() -> TiersFile.read(file)).hasMessageStartingWith(file + ":2: the key file ")
                .hasMessageEndingWith("nowhere.txt does not exist");
    }

    @Test
    void aBadKeyInAKeyFileIsNamedWithThatFilesLineNumber(TestInfo test) throws Exception {
        Path file = write(test, "pro 5 5 queue @keys.txt\n");
        Files.writeString(file.resolveSibling("keys.txt"), "good\nbad key\n");

        assertThatThrownBy(() -> TiersFile.read(file))
                .hasMessage(file.resolveSibling("keys.txt").toAbsolutePath() + ":2: key 'bad key' must be " + TiersFile.KEY_RULE);
    }

    @Test
    void aMissingOrEmptyTiersFileIsRefused(TestInfo test) throws Exception {
        Path missing = TestDirs.fresh(test).resolve("no-such-tiers.txt");
        assertThatThrownBy(() -> TiersFile.read(missing)).hasMessage(missing + ": the tiers file does not exist");

        Path empty = write(test, "# nothing here\n");
        assertThatThrownBy(() -> TiersFile.read(empty)).hasMessageContaining(": no tiers");
    }
}
