package dev.ratecache.suite.reproduce;

import static dev.ratecache.suite.matrix.Metric.CPU_FRONT_S;
import static dev.ratecache.suite.matrix.Metric.CPU_ORIGIN_S;
import static dev.ratecache.suite.matrix.Metric.GENERATOR_CPU_PCT;
import static dev.ratecache.suite.matrix.Metric.MAX_MS;
import static dev.ratecache.suite.matrix.Metric.MEAN_MS;
import static dev.ratecache.suite.matrix.Metric.SAMPLES;
import static dev.ratecache.suite.matrix.Metric.THROUGHPUT;

import dev.ratecache.suite.matrix.Cell;
import dev.ratecache.suite.matrix.Source;
import dev.ratecache.suite.matrix.Generator;
import dev.ratecache.suite.matrix.Plan;
import dev.ratecache.suite.matrix.WrkGenerator;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Seed 003: a fast server under wrk -t10 -c20 (10 s, wrk's default). Here the suite's origin
 * answers an endpoint of its own from memory (no delay, no database), straight and through the
 * edge (its cache on, limits off): the edge's gain shrinks as the origin gets faster, and the
 * edge's own ceiling bounds it.
 */
final class FastOrigin implements Experiment {
    static final String NAME = "fast-origin";
    /** The origin's endpoint for it: answered from memory, with no delay, fresh for a day at the edge. */
    static final String ENDPOINT = "fast";
    static final Plan PLAN = Plan.ofPath(NAME, "/" + ENDPOINT, 14);
    static final String DIRECT = NAME + "/direct";
    static final String EDGE = NAME + "/edge";
    private static final Map<String, String> WRK = Map.of(WrkGenerator.THREADS, "10", WrkGenerator.CONNECTIONS, "20",
            WrkGenerator.DURATION, "10");

    private static final String MACHINE = "Their figures are of a MacBook Pro M1 Max (10 cores) with wrk's 10 threads"
            + " beside the server; here wrk's 10 threads, nginx and the origin's JVM share 2 cores of a virtual machine.";

    private static final List<PublishedRow> PUBLISHED = List.of(
            new PublishedRow("omni_httpd: an HTTP server (H2O) inside PostgreSQL, answering /users/johndoe from a join",
                    EDGE, "Both are C servers that answer from memory with no hop behind them (H2O inside PostgreSQL"
                            + " there, an nginx HIT here), so the difference is mostly the machine. " + MACHINE
                            + " Our HIT also goes through the production front (its access log, security headers,"
                            + " Age), not a bare server.",
                    PublishedFigure.of(THROUGHPUT, "124366.73"), PublishedFigure.of(MEAN_MS, "354.85us"), PublishedFigure.of(MAX_MS, "47.24ms"),
                    PublishedFigure.of(SAMPLES, "1256199")),
            new PublishedRow("omni_httpd on an older x86_64 Linux machine of theirs", EDGE, "The same server, on another"
                    + " machine of theirs, gave a little over half the M1 Max's figure: the machine alone moves it that much.",
                    PublishedFigure.of(THROUGHPUT, "about 70K/sec")),
            new PublishedRow("Node.js (http module) with a pg pool of 10, a query per request", DIRECT,
                    "Their Node.js sent each request's query to PostgreSQL over TCP through its pool; our origin has no"
                            + " database on this path and answers from memory, on Tomcat's 10 request threads, its"
                            + " JVM started for this run and compiling its hot path while wrk measures. " + MACHINE,
                    PublishedFigure.of(THROUGHPUT, "18838.56"), PublishedFigure.of(MEAN_MS, "1.11ms"), PublishedFigure.of(MAX_MS, "33.09ms"),
                    PublishedFigure.of(SAMPLES, "190319")),
            new PublishedRow("The same Node.js, PostgreSQL reached over Unix sockets", DIRECT,
                    "Unix sockets spared their app a TCP round trip to its database on each request (1.6 times the"
                            + " TCP figure); our origin reaches no database here, and every hop of ours (wrk to nginx,"
                            + " nginx to nginx, nginx to the origin) is TCP on loopback, as it is between hosts in"
                            + " production. " + MACHINE,
                    PublishedFigure.of(THROUGHPUT, "30361.88"), PublishedFigure.of(MEAN_MS, "663.15us"), PublishedFigure.of(MAX_MS, "9.87ms"),
                    PublishedFigure.of(SAMPLES, "306649")));

    private static final About ABOUT = new About(NAME, "003", "a fast origin, straight and behind the edge",
            Source.FAST_ORIGIN.cite() + ": omni_httpd, an HTTP server"
                + " inside PostgreSQL, against a Node.js server with a pg pool, on a MacBook Pro M1 Max",
            WrkGenerator.describe(WRK) + " (the write-up gives -c 20 -t 10; 10 s is wrk's default)",
            "the suite's origin answering " + PLAN.paths().get("path") + " from memory (no delay, no database),"
                + " straight; then through the suite's edge (front and back nginx, limits off, edge cache on), every"
                + " answer after the first a HIT. The point: the edge's gain shrinks as the origin gets faster, and"
                + " the edge's own ceiling bounds it",
            "An HTTP server inside PostgreSQL answered 6.6 times what Node.js with a pg pool did (124366.73 against"
                + " 18838.56 requests/s; 4.1 times the 30361.88 over Unix sockets): a process and a hop fewer per request.",
            PUBLISHED, List.of("--origin.endpoints." + ENDPOINT + ".delay=0ms",
                    "--origin.endpoints." + ENDPOINT + ".max-age=86400"), false);

    @Override
    public About about() {
        return ABOUT;
    }

    @Override
    public List<Cell> cells() {
        return List.of(
                Cell.of(PLAN, "direct").direct().drivenBy(Generator.WRK, WRK).published(besideRow(DIRECT)).build(),
                Cell.of(PLAN, "edge").frontLimit(false).backLimit(false).serverCache().drivenBy(Generator.WRK, WRK)
                        .published(besideRow(EDGE)).build());
    }

    @Override
    public List<String> foundHere(Measured m) {
        var ratio = m.ratio(EDGE, DIRECT, THROUGHPUT);
        if (ratio.isEmpty()) {
            return List.of(m.notMeasured(DIRECT, EDGE));
        }
        List<String> lines = new ArrayList<>();
        lines.add(String.format(Locale.ROOT, "The edge's HIT answered %.2f requests/s against the origin's %.2f straight"
                        + " from memory: %.2f times (mean latency %.2f against %.2f ms).", m.median(EDGE, THROUGHPUT).get(),
                m.median(DIRECT, THROUGHPUT).get(), ratio.get(), m.median(EDGE, MEAN_MS).orElse(Double.NaN),
                m.median(DIRECT, MEAN_MS).orElse(Double.NaN)));
        var origin = m.cpuMicrosPerAnswer(DIRECT, CPU_ORIGIN_S);
        var edge = m.cpuMicrosPerAnswer(EDGE, CPU_FRONT_S);
        if (origin.isPresent() && edge.isPresent()) {
            lines.add(String.format(Locale.ROOT, "On cores they share, each server answers at most as fast as its CPU"
                    + " per answer allows: %.0f µs in the origin, %.0f µs in the front nginx, so the edge can gain at"
                    + " most %.1f times here (%.2f measured, wrk using %s of a core beside them). The faster the"
                    + " origin, the smaller that quotient: one as fast as a C server answering from memory (omni_httpd)"
                    + " costs about what the edge does, and the edge gains little beyond its own ceiling; behind a slow"
                    + " origin (the reference experiment's /hare takes 100 ms, seed 001's Python app 65 ms a request)"
                    + " the same HIT multiplies throughput many times. ./run-tests.sh peak measures the edge's ceiling"
                    + " alone.", origin.get(), edge.get(), origin.get() / edge.get(), ratio.get(),
                    m.median(EDGE, GENERATOR_CPU_PCT).map(p -> String.format(Locale.ROOT, "%.0f %%", p)).orElse("n/a")));
        }
        return lines;
    }
}
