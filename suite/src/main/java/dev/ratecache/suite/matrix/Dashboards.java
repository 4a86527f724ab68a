package dev.ratecache.suite.matrix;

import dev.ratecache.proc.ManagedProcess;
import dev.ratecache.suite.jmeter.JMeter;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * JMeter's HTML dashboard and PNG graphs of each cell's JTL, whichever generator wrote it: a
 * dashboard JVM and a graph JVM per graph, several CPU-seconds per cell, or none at all
 * (--no-dashboards) for a run that only needs the report.
 */
final class Dashboards implements AutoCloseable, JMeter.Drawing {
    private final JMeter jmeter;
    private final PrintWriter out;
    // Drawn at low priority while the next cells run: the runs mostly wait on the origin's delays,
    // so two drawing threads keep pace on two cores. Null when nothing is drawn.
    private final ExecutorService drawing;
    private final List<Future<?>> drawn = new ArrayList<>();
    private final Set<ManagedProcess> running = ConcurrentHashMap.newKeySet();
    private volatile boolean measuring = true;

    Dashboards(JMeter jmeter, boolean draw, PrintWriter out) {
        this.jmeter = jmeter;
        this.out = out;
        this.drawing = draw ? Executors.newFixedThreadPool(2) : null;
    }

    /** Draws a finished cell's dashboard and graphs into {@code clientDir} in the background. */
    void draw(Path jtl, Path clientDir) {
        if (drawing == null) {
            return;
        }
        drawn.add(drawing.submit(() -> {
            try {
                jmeter.dashboard(jtl, clientDir.resolve("dashboard"), this);
                jmeter.graphs(jtl, clientDir.resolve("graphs"), this);
            } catch (IOException e) {
                out.println("  note: drawing " + clientDir + " failed: " + e.getMessage().lines().findFirst().orElse(""));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return null;
        }));
    }

    @Override
    public boolean besideMeasurement() {
        return measuring;
    }

    @Override
    public void running(ManagedProcess process) {
        running.add(process);
        // Started just as the measuring ended: it must not stay behind at nice 19.
        if (!measuring) {
            process.toNormalPriority();
        }
    }

    @Override
    public void ended(ManagedProcess process) {
        running.remove(process);
    }

    /**
     * Waits for every drawing: the report links what exists. Nothing is measured any more, so what
     * is still drawn runs at normal priority from here.
     */
    void awaitAll() {
        measuring = false;
        running.forEach(ManagedProcess::toNormalPriority);
        for (Future<?> f : drawn) {
            try {
                f.get();
            } catch (Exception e) {
                out.println("  note: a dashboard was not drawn: " + e.getMessage());
            }
        }
    }

    @Override
    public void close() {
        if (drawing != null) {
            drawing.shutdownNow();
        }
    }
}
