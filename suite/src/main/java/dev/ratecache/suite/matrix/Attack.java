package dev.ratecache.suite.matrix;

import dev.ratecache.suite.edge.SlowClient;
import dev.ratecache.suite.switches.StackSwitches;
import java.util.Locale;

/**
 * A cell of --matrix attacks: slow clients ({@link SlowClients}) holding connections of the edge
 * while the normal clients run their plan. They start first, so that the normal clients meet the
 * edge already under attack, and each opens another connection when the edge ends one, until the
 * attack's time is up.
 *
 * @param kind        the attack
 * @param connections how many connections the attacker holds at once, from its own address
 */
public record Attack(SlowClient kind, int connections) implements CellTrait {
    @Override
    public StackSwitches apply(StackSwitches switches) {
        return switches;
    }

    @Override
    public String describe(Cell cell) {
        String what = switch (kind) {
            case HEADERS -> "each sending a request's header a line a second and never ending it (slowloris)";
            case BODY -> "each sending a POST whose body it promises is 64 KiB, a byte a second";
            case READ -> "each pipelining " + SlowClients.PIPELINED + " requests and reading the answers "
                    + SlowClients.READ_BYTES + " bytes a second through a " + SlowClients.READ_WINDOW + "-byte receive buffer";
        };
        return String.format(Locale.ROOT, "under attack by %d slow clients from %s, %s", connections,
                SlowClients.ADDRESS, what);
    }
}
