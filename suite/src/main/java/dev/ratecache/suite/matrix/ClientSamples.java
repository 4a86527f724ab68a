package dev.ratecache.suite.matrix;

import dev.ratecache.jtl.Jtl;
import dev.ratecache.jtl.JtlSummary;
import dev.ratecache.jtl.Sample;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * Every request a cell's load generator recorded, read once from its JTL: the summary, the
 * admitted requests' latency, the stale reads and the breakdowns all come from it.
 */
record ClientSamples(List<Sample> samples, JtlSummary summary) {

    static ClientSamples read(Path jtl) throws IOException {
        List<Sample> samples = Jtl.read(jtl);
        return new ClientSamples(samples, JtlSummary.of(samples));
    }

    /** Epoch ms of the first request's start; 0 when there was none. */
    long firstStartMs() {
        return samples.stream().mapToLong(Sample::timeStamp).min().orElse(0);
    }

    /** Epoch ms of the last response's end; 0 when there was none. */
    long lastEndMs() {
        return samples.stream().mapToLong(s -> s.timeStamp() + s.elapsed()).max().orElse(0);
    }

    /** The summary of the samples a limit let through (answered, not rejected); null when none was. */
    JtlSummary admitted() {
        List<Sample> admitted = samples.stream().filter(sample -> sample.success() && !sample.rejected()).toList();
        return admitted.isEmpty() ? null : JtlSummary.of(admitted);
    }
}
