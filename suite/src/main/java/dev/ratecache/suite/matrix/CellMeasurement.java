package dev.ratecache.suite.matrix;

import dev.ratecache.jtl.JtlSummary;

/**
 * What one run of one cell measured.
 *
 * @param originRequests requests the origin counted during the run
 * @param edgeHitPct     HITs among the front end's responses; null when the edge cache is off or there is no front end
 * @param wallSeconds    the JMeter run, from its start to its exit
 * @param originPeak     the most requests that reached the origin in one second (any window); null
 *                       without a back end
 * @param admitted       the summary of the samples a limit let through (answered, not rejected); null
 *                       when none was
 */
public record CellMeasurement(JtlSummary jtl, Double originRequests, Double edgeHitPct, Cpu cpu, double wallSeconds,
        Double originPeak, JtlSummary admitted) {

    public CellMeasurement(JtlSummary jtl, Double originRequests, Double edgeHitPct, Cpu cpu, double wallSeconds) {
        this(jtl, originRequests, edgeHitPct, cpu, wallSeconds, null, null);
    }

    /** CPU seconds per process; null for a process the cell did not run (no Nginx when direct). */
    public record Cpu(Double front, Double back, Double origin, Double jmeter) {}

    /** Origin requests per second over the measured window (first request's start to last response's end). */
    public Double originRate() {
        return originRequests == null ? null : originRequests / Math.max(jtl.wallMs() / 1000.0, 0.001);
    }

    public Double cpuPct(Double seconds) {
        return seconds == null ? null : 100.0 * seconds / Math.max(wallSeconds, 0.001);
    }
}
