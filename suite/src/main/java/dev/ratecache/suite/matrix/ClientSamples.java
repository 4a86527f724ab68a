package dev.ratecache.suite.matrix;

import dev.ratecache.jtl.Jtl;
import dev.ratecache.jtl.JtlSummary;
import dev.ratecache.jtl.Sample;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * Every request a cell's load generator recorded, read once from its JTL: the summary, the
 * admitted requests' latency, the stale reads and the breakdowns all come from it. A generator
 * that keeps no record per request (wrk) gives its own summary and no samples.
 *
 * @param firstStartMs epoch ms of the first request's start; 0 when there was none
 * @param lastEndMs    epoch ms of the last response's end; 0 when there was none
 */
record ClientSamples(List<Sample> samples, JtlSummary summary, long firstStartMs, long lastEndMs) {

    static ClientSamples read(Path jtl) throws IOException {
        List<Sample> samples = Jtl.read(jtl);
        return new ClientSamples(samples, JtlSummary.of(samples),
                samples.stream().mapToLong(Sample::timeStamp).min().orElse(0),
                samples.stream().mapToLong(s -> s.timeStamp() + s.elapsed()).max().orElse(0));
    }

    /** What the generator's own figures say, for a run without a JTL. */
    static ClientSamples of(LoadGenerator.Summarized run) {
        return new ClientSamples(List.of(), run.summary(), run.firstStartMs(), run.lastEndMs());
    }

    /**
     * The summary of the samples a limit let through (answered, not rejected); null when none was.
     * Without samples, the whole summary when every request was answered, else null: the latency
     * of the answered ones alone is not known.
     */
    JtlSummary admitted() {
        if (samples.isEmpty()) {
            return summary.samples() > 0 && summary.rejected() + summary.otherErrors() == 0 ? summary : null;
        }
        List<Sample> admitted = samples.stream().filter(sample -> sample.success() && !sample.rejected()).toList();
        return admitted.isEmpty() ? null : JtlSummary.of(admitted);
    }
}
