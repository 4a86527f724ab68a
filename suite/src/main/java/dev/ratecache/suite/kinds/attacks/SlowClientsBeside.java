package dev.ratecache.suite.kinds.attacks;

import dev.ratecache.proc.Poll;
import dev.ratecache.suite.matrix.Cell;
import dev.ratecache.suite.matrix.CellTrait;
import dev.ratecache.suite.spec.StackSpec;
import java.time.Duration;
import java.util.List;

/**
 * An attack's slow clients beside the cell's normal clients: opened before them, so that they meet
 * an edge already under attack; held past the traffic for as long as the edge's timeouts take to
 * show; then counted, with what the edge itself counted of its connections where it keeps a count.
 */
final class SlowClientsBeside implements CellTrait.Beside {
    /** How long the slow clients may take to open their connections before the normal clients start anyway. */
    private static final Duration OPENING = Duration.ofSeconds(30);

    private final Attack attack;
    private final SlowClients attacker;
    private final EdgeConnections edge;
    private final Cell cell;
    private final StackSpec spec;
    private final long minimumMs;
    private AttackFigures figures;

    /**
     * @param edge          the edge's own count of its connections; null where it keeps none the suite can read
     * @param clientTimeout the front's --client-timeout, seconds
     */
    SlowClientsBeside(Attack attack, SlowClients attacker, EdgeConnections edge, Cell cell, StackSpec spec,
            int clientTimeout) {
        this.attack = attack;
        this.attacker = attacker;
        this.edge = edge;
        this.cell = cell;
        this.spec = spec;
        // Twice the timeout and 2 s more, so that a connection opened last outlives a timeout of that length and
        // the edge is seen ending it (or not).
        this.minimumMs = (2L * clientTimeout + 2) * 1000;
    }

    @Override
    public void beforeTraffic() throws InterruptedException {
        attacker.start();
        attacker.awaitOpened(OPENING);
    }

    @Override
    public void afterTraffic(long firstStartMs, long lastEndMs) {
        Poll.pause(Math.max(0, Math.max(lastEndMs + 1000, attacker.startedMs() + minimumMs) - System.currentTimeMillis()));
        // The edge's last count is taken while the attacker still holds what it holds.
        EdgeConnections.Seen edgeSide = null;
        if (edge != null) {
            edge.close();
            edgeSide = edge.seen();
        }
        List<SlowClients.Connection> connections = attacker.finish();
        figures = AttackFigures.of(attack, connections, firstStartMs, lastEndMs, attacker.startedMs(),
                cell.edge().adapter().slowClientBound(attack.kind(), spec), edgeSide);
    }

    /** The attack's figures; null when the traffic never ended (the cell failed first). */
    @Override
    public AttackFigures figure(CellTrait.Ran ran) {
        return figures;
    }

    @Override
    public void close() {
        if (edge != null) {
            edge.close();
        }
        attacker.close();
    }
}
