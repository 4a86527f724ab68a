package dev.ratecache.suite.matrix;

import dev.ratecache.suite.jmeter.JMeter;
import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.LongConsumer;

/**
 * JMeter as a cell's load generator: the cell's plan, headless. Its console (log4j's warnings, its
 * banner, its summariser's lines) goes to jmeter.out in the cell's folder, beside jmeter.log.
 */
final class JMeterGenerator implements LoadGenerator {
    private final JMeter jmeter;
    private final JMeter.Remote remote;

    JMeterGenerator(JMeter jmeter, JMeter.Remote remote) {
        this.jmeter = jmeter;
        this.remote = remote;
    }

    @Override
    public Run run(Cell cell, Map<String, String> properties, Path dir, LongConsumer started)
            throws IOException, InterruptedException, CellFailure {
        // The plan's paths from the one place that knows them; the user's -J values still win.
        Map<String, String> props = new LinkedHashMap<>(cell.plan().paths());
        props.putAll(properties);
        JMeter.Run run = jmeter.run(cell.plan().file(), props, dir, remote, started);
        if (run.exitCode() != 0) {
            throw new CellFailure("JMeter exited with code " + run.exitCode()
                    + (run.exitCode() == 2 ? " (the plan refused a property value)" : ""), run.log());
        }
        return new Run(run.jtl(), run.log(), run.wallSeconds(), run.cpuSeconds());
    }

    @Override
    public Path output(Path dir) {
        return dir.resolve(JMeter.OUTPUT);
    }
}
