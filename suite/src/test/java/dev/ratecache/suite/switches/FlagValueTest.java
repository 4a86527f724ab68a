package dev.ratecache.suite.switches;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ratecache.suite.spec.AgeSource;
import dev.ratecache.suite.spec.Balance;
import dev.ratecache.suite.spec.EdgeBalance;
import dev.ratecache.suite.spec.LimitScope;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** The switches' values as a user types them: their --help spelling in any case, or one line listing the accepted ones. */
class FlagValueTest {
    private static StackSwitches parsed(String... args) {
        StackSwitches switches = new StackSwitches();
        new CommandLine(switches).parseArgs(args);
        return switches;
    }

    @Test
    void anEnumSwitchTakesItsHelpSpellingInAnyCase() {
        StackSwitches s = parsed("--stale", "PROTECTIVE", "--balance", "Least-Conn", "--edge-balance", " uri-hash ",
                "--limit-scope", "misses", "--missing-key", "Reject", "--age-source", "NJS");
        assertThat(s.stale()).isEqualTo(StaleMode.PROTECTIVE);
        assertThat(s.balance()).isEqualTo(Balance.LEAST_CONN);
        assertThat(s.edgeBalance()).isEqualTo(EdgeBalance.URI_HASH);
        assertThat(s.limitScope()).isEqualTo(LimitScope.MISSES);
        assertThat(s.missingKey()).isEqualTo(MissingKey.REJECT);
        assertThat(s.caching.ageSource).isEqualTo(AgeSource.NJS);
    }

    @Test
    void aBadValueIsRefusedListingTheAcceptedOnes() {
        assertThatThrownBy(() -> parsed("--stale", "sometimes")).isInstanceOf(CommandLine.ParameterException.class)
                .hasMessageContaining("'sometimes' is not a stale mode: use rfc or protective");
        assertThatThrownBy(() -> parsed("--balance", "random"))
                .hasMessageContaining("'random' is not a balance method: use round-robin or least-conn");
        assertThatThrownBy(() -> parsed("--edge-balance", "random"))
                .hasMessageContaining("'random' is not an edge balance: use round-robin or uri-hash");
        assertThatThrownBy(() -> parsed("--age-source", "lua"))
                .hasMessageContaining("'lua' is not an Age source: use auto, native or njs");
        assertThatThrownBy(() -> parsed("--front-mode", "fast"))
                .hasMessageContaining("'fast' is not a limit mode: use " + LimitMode.ACCEPTED);
    }

    enum Three { ONE, TWO, THREE }

    @Test
    void moreThanTwoValuesAreListedWithCommasAndOr() {
        assertThat(FlagValue.choose(Three.class, "a number", "two")).isEqualTo(Three.TWO);
        assertThatThrownBy(() -> FlagValue.oneOf(Three.class, "a number").convert("four"))
                .isInstanceOf(CommandLine.TypeConversionException.class)
                .hasMessage("'four' is not a number: use ONE, TWO or THREE");
    }
}
