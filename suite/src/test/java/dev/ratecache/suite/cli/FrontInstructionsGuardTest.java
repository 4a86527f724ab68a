package dev.ratecache.suite.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.suite.edge.EdgeProduct;
import dev.ratecache.suite.peak.HitInstructions;
import dev.ratecache.suite.stack.StackPorts;
import dev.ratecache.testkit.Required;
import dev.ratecache.testkit.StackTest;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The HIT path's price, guarded without a clock: the production front's user-space instructions per
 * HIT, counted by callgrind ({@code peak --instructions}), at most {@link HitInstructions#NGINX_BOUND}
 * times the bare proxy_cache's. Counts do not depend on how busy the machine is, so this holds on a
 * shared CI machine where a rate ratio would not. HAProxy's full front is held to its bare form's count the same way.
 */
@StackTest
class FrontInstructionsGuardTest {
    private final CommandRun cli = new CommandRun();

    @Test
    void productionFrontStaysWithinTheBoundOfTheBareCachesInstructionsPerHit() {
        List<String> args = new ArrayList<>(List.of("peak", "--instructions"));
        args.addAll(StackPorts.free().flags());

        assertThat(cli.run(args.toArray(String[]::new))).as(cli.err()).isZero();

        HitInstructions.Outcome outcome = cli.commandLine().getSubcommands().get("peak").<PeakCommand>getCommand()
                .instructionsOutcome();
        // A HIT is tens of thousands of instructions in nginx; a count near zero is a run that measured nothing.
        assertThat(outcome.bare().perHit()).as("bare cache's instructions per HIT").isGreaterThan(10_000);
        assertThat(outcome.production().perHit()).as("the production front does more than the bare cache")
                .isGreaterThan(outcome.bare().perHit());
        assertThat(outcome.ratio()).as(cli.out()).isLessThanOrEqualTo(outcome.bound());
        assertThat(outcome.production().step().njsAge()).as("Age by the native module, which the test command builds")
                .isFalse();
        assertThat(cli.out()).contains("production front over the bare cache", "within the bound");
    }

    @Test
    void haproxysFullFrontStaysWithinTheBoundOfItsBareFormsInstructionsPerHit() {
        Required.that(EdgeProduct.HAPROXY.adapter().notInstalled().isEmpty(), "haproxy is not installed");
        List<String> args = new ArrayList<>(List.of("peak", "--instructions", "--edge", "haproxy"));
        args.addAll(StackPorts.free().flags());

        assertThat(cli.run(args.toArray(String[]::new))).as(cli.err()).isZero();

        HitInstructions.Outcome outcome = cli.commandLine().getSubcommands().get("peak").<PeakCommand>getCommand()
                .instructionsOutcome();
        assertThat(outcome.product()).isEqualTo("HAProxy");
        assertThat(outcome.bare().perHit()).as("bare form's instructions per HIT").isGreaterThan(10_000);
        assertThat(outcome.production().perHit()).as("the full front does more than the bare form")
                .isGreaterThan(outcome.bare().perHit());
        assertThat(outcome.ratio()).as(cli.out()).isLessThanOrEqualTo(outcome.bound());
        assertThat(cli.out()).contains("HAProxy's full front over its bare form", "within the bound");
    }
}
