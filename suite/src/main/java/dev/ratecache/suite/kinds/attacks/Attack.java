package dev.ratecache.suite.kinds.attacks;

import dev.ratecache.suite.edge.SlowClient;
import dev.ratecache.suite.matrix.Cell;
import dev.ratecache.suite.matrix.CellTrait;
import dev.ratecache.suite.stack.Stack;
import dev.ratecache.suite.switches.StackSwitches;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.Locale;

/**
 * A cell of --matrix attacks: slow clients ({@link SlowClients}) holding connections of the edge
 * while the normal clients run their plan. They start first, so that the normal clients meet the
 * edge already under attack, and each opens another connection when the edge ends one, until the
 * attack's time is up ({@link SlowClientsBeside}).
 *
 * @param kind        the attack
 * @param connections how many connections the attacker holds at once, from its own address
 */
record Attack(SlowClient kind, int connections) implements CellTrait {
    @Override
    public StackSwitches apply(StackSwitches switches) {
        return switches;
    }

    /** The slow clients at the cell's front tier; none for a cell without tiers. */
    @Override
    public CellTrait.Beside beside(CellTrait.Run run) throws IOException {
        Stack stack = run.stack();
        if (stack == null) {
            return null;
        }
        SlowClients attacker = new SlowClients(kind, connections,
                new InetSocketAddress(stack.frontUri().getHost(), stack.frontUri().getPort()));
        // The edge's own count of its connections, where it keeps one the suite can read (nginx's stub_status).
        EdgeConnections edge = stack.product().equals("nginx") ? EdgeConnections.start(run.ports().frontStatus()) : null;
        return new SlowClientsBeside(this, attacker, edge, run.cell(), run.spec(), run.switches().clientTimeout());
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
