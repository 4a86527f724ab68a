package dev.ratecache.suite.switches;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ratecache.testkit.TestDirs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import dev.ratecache.suite.spec.Quota;
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

    @Test
    void aTierMayHaveAQuotaOfItsOwnOrNoneBetweenItsModeAndItsKeys(TestInfo test) throws Exception {
        Path file = write(test, """
                # name  rate  burst  mode     quota           keys
                free    1     2      nodelay  quota=1000/d    k-free-1,k-free-2
                pro     50    100    queue    quota=600/60s   @pro-keys.txt
                partner 50    100    queue    quota=none      k-partner
                plain   5     5      queue                    k-plain
                anonymous 1   0      queue    quota=10/h
                """);
        Files.writeString(file.resolveSibling("pro-keys.txt"), "quota=5/d\n");

        List<LimitTier> tiers = TiersFile.read(file);

        assertThat(tiers).containsExactly(
                new LimitTier("free", 1, 2, LimitMode.NODELAY, List.of("k-free-1", "k-free-2"), "1000/d"),
                // A key file's key may look like the field: only the field after MODE is read as the quota.
                new LimitTier("pro", 50, 100, LimitMode.QUEUE, List.of("quota=5/d"), "600/m"),
                new LimitTier("partner", 50, 100, LimitMode.QUEUE, List.of("k-partner"), LimitTier.NO_QUOTA),
                new LimitTier("plain", 5, 5, LimitMode.QUEUE, List.of("k-plain"), ""),
                new LimitTier("anonymous", 1, 0, LimitMode.QUEUE, List.of(), "10/h"));
        // --quota for the tier without a field of its own; none for quota=none; --quota-window for all.
        Optional<Quota> global = Optional.of(Quota.parse("5/h", Quota.Window.SLIDING));
        assertThat(tiers.get(0).quotaInForce(global, Quota.Window.FIXED)).contains(new Quota(1000, 86_400, Quota.Window.FIXED));
        assertThat(tiers.get(2).quotaInForce(global, Quota.Window.FIXED)).isEmpty();
        assertThat(tiers.get(3).quotaInForce(global, Quota.Window.FIXED)).contains(new Quota(5, 3_600, Quota.Window.FIXED));
        assertThat(tiers.get(3).quotaInForce(Optional.empty(), Quota.Window.FIXED)).isEmpty();
        // Written back as read.
        Path again = write(test, TiersFile.format(tiers.subList(0, 4), List.of("again")));
        assertThat(TiersFile.read(again)).isEqualTo(tiers.subList(0, 4));
        // A key like the field, inline in a tier without a quota, is written where it cannot be read as one.
        LimitTier keyLikeAQuota = new LimitTier("odd", 1, 1, LimitMode.QUEUE, List.of("quota=5/d", "k-odd"));
        assertThat(TiersFile.read(write(test, TiersFile.format(List.of(keyLikeAQuota), List.of()))))
                .containsExactly(new LimitTier("odd", 1, 1, LimitMode.QUEUE, List.of("k-odd", "quota=5/d")));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "too few fields       | free 1 2                       | :1: expected NAME RATE BURST MODE [quota=N/WINDOW] [KEYS]",
            "too many fields      | free 1 2 nodelay quota=5/d a b | :1: expected NAME RATE BURST MODE [quota=N/WINDOW] [KEYS], e.g.",
            "quota not a quota    | free 1 2 nodelay quota=7/week a | :1: quota '7/week' must be N/m, N/h, N/d or N/SECONDSs, e.g. 1000/d or 600/60s, or none",
            "quota of nothing     | free 1 2 nodelay quota= a      | :1: quota '' must be N/m",
            "quota of zero        | free 1 2 nodelay quota=0/d a   | :1: quota '0/d' must be",
            "quota past a month   | free 1 2 nodelay quota=1/2678401s a | :1: quota '1/2678401s' must be",
            "quota after the keys | free 1 2 nodelay a quota=5/d   | :1: the quota goes before the keys: NAME RATE BURST MODE [quota=N/WINDOW] [KEYS]",
            "quota but no keys    | free 1 2 nodelay quota=5/d     | :1: tier 'free' lists no keys",
            "a quota= key inline  | free 1 2 nodelay quota=5/d,b   | :1: quota '5/d,b' must be",
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
