package dev.ratecache.suite.kinds.edges;

import dev.ratecache.suite.edge.Capability;
import dev.ratecache.suite.edge.EdgeProduct;
import dev.ratecache.suite.matrix.Cell;
import dev.ratecache.suite.matrix.Matrix;
import dev.ratecache.suite.matrix.Plan;
import java.util.ArrayList;
import java.util.List;

/** The cells of --matrix edges: every registered edge product through the same plans and floods. */
public final class EdgeCells {
    private EdgeCells() {}

    /** The name of --matrix edges' set of cells. */
    private static final String EDGES = "edges";

    /** The edges matrix's flood rates, as multiples of the front end's per-client rate. */
    private static final List<Integer> FLOOD_MULTIPLES = List.of(2, 10);

    /**
     * Each edge product with both limits and the edge cache on: the stress and load plans, and the
     * flood at 2x and 10x the front's per-client rate from one address and from
     * {@link Matrix#MANY_SOURCES}. Named {@code edges/PRODUCT.VARIANT}, so that each plan's table sets
     * the products side by side. A product without a cache runs its cells with limits only, and the
     * edges section says what it cannot do: its rows stand in the tables rather than being left out.
     */
    public static List<Cell> of(int frontRate) {
        List<Cell> cells = new ArrayList<>();
        for (EdgeProduct product : EdgeProduct.values()) {
            boolean caches = product.adapter().capabilities().contains(Capability.CACHE);
            cells.add(Cell.named(Plan.STRESS, EDGES, product + ".stress").serverCache(caches).edge(product).build());
            cells.add(Cell.named(Plan.LOAD, EDGES, product + ".load").serverCache(caches).edge(product).build());
            for (int multiple : FLOOD_MULTIPLES) {
                for (int sources : List.of(1, Matrix.MANY_SOURCES)) {
                    cells.add(Cell.named(Plan.FLOOD, EDGES, product + ".flood-" + multiple + "x-"
                                    + (sources == 1 ? "one" : "many")).serverCache(caches).edge(product)
                            .property("rate", String.valueOf(multiple * frontRate))
                            .property("sources", String.valueOf(sources)).build());
                }
            }
        }
        return cells;
    }
}
