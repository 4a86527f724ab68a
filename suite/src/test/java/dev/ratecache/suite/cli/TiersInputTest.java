package dev.ratecache.suite.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** --matrix tiers: input it cannot take is refused in one line before anything starts. */
class TiersInputTest {
    private final CommandRun cli = new CommandRun();

    @Test
    void aKeyOutsideAHeaderIsRefusedBecauseThePlanSendsKeysInAHeader() {
        assertThat(cli.run("--matrix", "tiers", "--limit-key", "cookie:session")).isEqualTo(2);
        assertThat(cli.err()).contains("--matrix tiers sends each key in a header: use --limit-key header:NAME");
        assertThat(cli.out()).doesNotContain("run folder");
    }

    @Test
    void anOnlyOutsideTheTiersMatrixListsItsCells() {
        assertThat(cli.run("--matrix", "tiers", "--only", "stress/both")).isEqualTo(2);
        assertThat(cli.err()).contains("valid cells: keys/addr, keys/addr.noisy, keys/api-key, keys/api-key.noisy,"
                + " keys/api-key.misses, keys/api-key.misses.noisy");
    }
}
