package dev.ratecache.suite.matrix;

/**
 * A published figure for one cell: the reference experiment's (2014: JMeter 2.9, nginx, a Vert.x
 * app server run as 10 single-threaded instances, on another machine), which each {@link Plan}
 * holds for its cells, or another experiment's that a cell reproduces ({@link Cell.Published}).
 * Context beside ours, not a target.
 *
 * @param meanMs         null where the reference published no latency for the cell
 * @param whyOursDiffers the sentence the report shows when ours differs by more than a quarter
 */
public record Reference(double throughput, double rejectedPct, Double meanMs, Double minMs, Double maxMs,
        String whyOursDiffers) {

    /** A figure with throughput and rejections only. */
    public static Reference of(double throughput, double rejectedPct, String whyOursDiffers) {
        return new Reference(throughput, rejectedPct, null, null, null, whyOursDiffers);
    }
}
