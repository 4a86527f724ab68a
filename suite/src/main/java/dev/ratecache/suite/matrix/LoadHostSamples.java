package dev.ratecache.suite.matrix;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ratecache.jtl.Sample;
import dev.ratecache.suite.distributed.Probe;
import dev.ratecache.suite.jmeter.JMeter;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/** The samples each load host of a distributed run (--load-hosts) sent, as JMeter merged them. */
final class LoadHostSamples {
    static final String FILE = "load-hosts.json";

    private LoadHostSamples() {}

    /** Counts them, writes {@value #FILE} into {@code dir} and says them on the terminal; null when JMeter ran here. */
    static Map<String, Long> count(List<Sample> samples, JMeter.Remote remote, Path dir, PrintWriter out) throws IOException {
        if (remote == null) {
            return null;
        }
        Map<String, Long> perHost = Probe.samplesPerHost(samples, remote.hosts());
        new ObjectMapper().writerWithDefaultPrettyPrinter().writeValue(dir.resolve(FILE).toFile(), perHost);
        out.println("  samples per load host: " + perHost);
        return perHost;
    }
}
