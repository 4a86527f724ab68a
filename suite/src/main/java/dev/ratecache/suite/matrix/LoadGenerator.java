package dev.ratecache.suite.matrix;

import dev.ratecache.jtl.JtlSummary;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.function.LongConsumer;

/**
 * Something that sends a cell's traffic and records every request in a JTL, so that every cell,
 * whatever sent its traffic, goes through the same summary, dashboard and graphs.
 */
public interface LoadGenerator {

    /**
     * What one run left and cost.
     *
     * @param jtl         every request, in the columns of jmeter/suite.properties; null from a generator
     *                    that keeps no record per request (wrk), whose {@code summarized} figures stand for it
     * @param log         what explains a failure
     * @param wallSeconds the generator's run, from its start to its exit
     * @param cpuSeconds  the generator's own CPU time
     * @param summarized  the generator's own figures when it wrote no JTL; null when it did
     */
    record Run(Path jtl, Path log, double wallSeconds, double cpuSeconds, Summarized summarized) {
        public Run(Path jtl, Path log, double wallSeconds, double cpuSeconds) {
            this(jtl, log, wallSeconds, cpuSeconds, null);
        }
    }

    /**
     * A run's figures as the generator computed them, and the window they cover (epoch ms, first
     * request's start to last response's end): what a JTL would have given.
     */
    record Summarized(JtlSummary summary, long firstStartMs, long lastEndMs) {}

    /**
     * Sends {@code cell}'s traffic to {@code properties}' host and port, sized by its other
     * properties (users, loops, rampup, client_cache, ...); writes its files into {@code dir}.
     * {@code started} is told the generator's PID once its process runs.
     */
    Run run(Cell cell, Map<String, String> properties, Path dir, LongConsumer started)
            throws IOException, InterruptedException, CellFailure;

    /**
     * The file in {@code dir} that the generator's own console output goes to while it runs, read
     * as it grows for the cell's live line and --verbose; null for one that writes none as it goes.
     */
    default Path output(Path dir) {
        return null;
    }
}
