package dev.ratecache.suite.kinds.attacks;

import dev.ratecache.suite.edge.Capability;
import dev.ratecache.suite.edge.EdgeProduct;
import dev.ratecache.suite.edge.SlowClient;
import dev.ratecache.suite.matrix.Cell;
import dev.ratecache.suite.matrix.Plan;
import java.util.ArrayList;
import java.util.List;

/** The cells of --matrix attacks: each edge product's baseline, and the same plan under each slow-client attack. */
public final class AttackCells {
    private AttackCells() {}

    /** The name of --matrix attacks' set of cells. */
    private static final String ATTACKS = "attacks";

    /** The name suffix of an edge's cell without the attack, which its attacks' cells are set beside. */
    static final String BASELINE = "baseline";

    /**
     * Slow clients per attack: as many as slowhttptest's examples use, a tenth of a front worker's
     * connections (worker_connections 4096).
     */
    public static final int ATTACK_CONNECTIONS = 500;

    /**
     * For each edge product: the stress plan behind the edge cache, alone (the baseline) and under
     * each slow-client attack, so that the normal clients' figures under attack are set beside their
     * own without it.
     */
    public static List<Cell> of() {
        List<Cell> cells = new ArrayList<>();
        for (EdgeProduct product : EdgeProduct.values()) {
            // A product without a cache is attacked with its limits only: its cells still stand in the table.
            boolean caches = product.adapter().capabilities().contains(Capability.CACHE);
            cells.add(Cell.named(Plan.STRESS, ATTACKS, product + "." + BASELINE).serverCache(caches).edge(product)
                    .build());
            for (SlowClient kind : SlowClient.values()) {
                cells.add(Cell.named(Plan.STRESS, ATTACKS, product + "." + kind).serverCache(caches).edge(product)
                        .trait(new Attack(kind, ATTACK_CONNECTIONS)).build());
            }
        }
        return cells;
    }
}
