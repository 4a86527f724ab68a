package dev.ratecache.suite.peak;

import dev.ratecache.proc.Ports;
import dev.ratecache.suite.edge.BareForm;
import dev.ratecache.suite.edge.Capability;
import dev.ratecache.suite.edge.Edge;
import dev.ratecache.suite.edge.EdgeProduct;
import dev.ratecache.suite.spec.StackSpec;
import dev.ratecache.suite.switches.StackSwitches;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.util.List;
import java.util.Locale;
import java.util.stream.IntStream;

/**
 * {@code ./run-tests.sh peak --edge haproxy|varnish}: a product's full edge (its adapter's two
 * tiers, limits present but not binding, cache on) against its bare form ({@link Edge#bareForm}:
 * the product's least caching config, in front of the same back tier) on the HIT path, each as a
 * ratio to nginx's {@code return 200} in the same round. The bar: the full edge keeps {@link #BAR}
 * of its bare form's rate, so that the features the suite adds cost next to nothing on a HIT.
 */
public final class EdgePeak {
    /** The share of the bare form's HIT rate the full edge must keep (median over rounds). */
    public static final Bar BAR = new Bar(0.95);

    /**
     * The run's figures: the ceiling's, the full edge's and the bare form's rows, round by round alike.
     *
     * @param path "HIT", or "proxied" for a product without a cache, whose requests all cross both tiers
     */
    public record Outcome(EdgeProduct product, String path, int bodyBytes, Figure<String> ceiling, Figure<String> full,
            Figure<String> bare, List<String> warnings) {
        /** Each round's full HIT rate over the bare form's in the same round. */
        public List<Double> fullOverBare() {
            return IntStream.range(0, full.runs().size()).mapToObj(i -> Spread.ratio(
                    full.runs().get(i).requestsPerSecond(), bare.runs().get(i).requestsPerSecond())).toList();
        }

        /** Whether the full edge kept {@link #BAR} of its bare form's HIT rate. */
        public boolean holds() {
            return BAR.holds(new Spread(fullOverBare()));
        }

        /** The bar's line: the figure, its range, and PASS or BELOW. */
        public String verdict() {
            return BAR.verdict(product.displayName() + "'s full edge", "its bare form", "the bare form", path,
                    new Spread(fullOverBare()), full.medianCpuMicros() / bare.medianCpuMicros());
        }
    }

    private EdgePeak() {}

    /**
     * Starts the origin, the full edge, the ceiling and the bare form, and measures the rounds. A product
     * without a cache (Traefik) has no HIT path: both its forms are measured on the proxied path, in front
     * of the same back tier, whose origin is then the ceiling itself (with the origin's body for the path),
     * so that neither the origin's delay nor its threads set the pace.
     */
    public static Outcome run(PeakOptions options, PrintWriter progress) throws IOException, InterruptedException {
        Edge product = options.product().adapter();
        BareForm bareForm = product.bareForm().orElseThrow(() -> new IllegalArgumentException(
                "peak measures " + options.product().displayName() + "'s edge without --edge"));
        boolean proxied = !product.capabilities().contains(Capability.CACHE);
        String path = proxied ? "proxied" : "HIT";
        try (PeakHarness h = new PeakHarness(options, progress)) {
            h.startOrigin();
            String name = options.product().displayName();
            StackSwitches switches = PeakRun.open(options.switches());
            CeilingServer originCeiling = null;
            if (proxied) {
                URI origin = switches.spec(options.ports()).origins().get(0).resolve(options.path());
                originCeiling = ceiling(h, options, PeakHarness.body(origin));
                switches.origins(List.of(URI.create("http://" + Ports.LOOPBACK + ":" + originCeiling.port())));
            }
            h.say("starting %s's full edge (both tiers) and its bare form%n", name);
            Edge.Running full = h.started(product.start(switches.spec(options.ports()), options.dir().resolve("full")));
            URI fullUrl = withoutDefaultPort(full.frontUri().resolve(options.path()));
            int bodyBytes = proxied ? PeakHarness.body(fullUrl) : PeakHarness.warm(fullUrl);
            CeilingServer ceiling = proxied ? originCeiling : ceiling(h, options, bodyBytes);
            // The bare form on the product's own default threads, as its full edge runs (the spec's workers are nginx's).
            StackSpec bareSpec = switches.copy().workers("auto").spec(options.ports());
            BareForm.Running bare = h.started(bareForm.start(bareSpec, options.dir().resolve("bare"), Ports.free()));
            URI bareUrl = withoutDefaultPort(bare.uri().resolve(options.path()));
            // The bare forms add no cache-status header: the origin's counter tells a hit from a miss.
            if (!proxied && !h.warmedByOrigin(bareUrl)) {
                h.warn(name + "'s bare form: five requests of " + options.path() + " each reached the origin");
            }
            String top = "ceiling: return 200";
            String fullRow = name + " " + path + ", full edge";
            String bareRow = name + " " + path + ", bare form";
            long frontPid = full.pids().get(0);
            // The back tier (busy on the proxied path) and the proxied path's origin take the same cores.
            h.alsoBusy(full.pids().get(1));
            if (originCeiling != null) {
                h.alsoBusy(originCeiling.pid());
            }
            PeakHarness.Tally<String> tally = new PeakHarness.Tally<>();
            h.rounds(round -> {
                measure(h, tally, top, ceiling.uri(), ceiling.pid(), round);
                // Every other round the bare form first, so a machine that slows down within a round
                // does not always fall on the same one of the two compared.
                for (String row : PeakHarness.inTurn(List.of(fullRow, bareRow), round)) {
                    boolean isFull = row.equals(fullRow);
                    h.notReachingOrigin(row, round, () -> measure(h, tally, row, isFull ? fullUrl : bareUrl,
                            isFull ? frontPid : bare.pid(), round));
                }
                tally.ratios(top, List.of(top, fullRow, bareRow));
            });
            for (String row : List.of(top, fullRow, bareRow)) {
                Figure<String> figure = tally.figure(row);
                if (figure.non2xx() > 0) {
                    h.warn(row + ": " + figure.non2xx() + " responses were not 2xx/3xx");
                }
                if (figure.socketErrors()) {
                    h.warn(row + ": wrk counted socket errors (see the wrk/*.out files)");
                }
            }
            return new Outcome(options.product(), path, bodyBytes, tally.figure(top), tally.figure(fullRow),
                    tally.figure(bareRow), h.warnings());
        }
    }

    /** nginx's {@code return 200} of {@code bodyBytes} bytes, with the run's workers, stopped with the harness. */
    private static CeilingServer ceiling(PeakHarness h, PeakOptions options, int bodyBytes) throws IOException {
        return h.started(CeilingServer.start(options.dir().resolve("ceiling"), options.workers(), Ports.free(), bodyBytes));
    }

    /**
     * {@code url} without its port when that is http's 80. HAProxy and Varnish key their caches by the
     * Host header as sent, and Java's client leaves a default port out of it where wrk sends the URL's:
     * warmed as "127.0.0.1" and pushed as "127.0.0.1:80", the first request of each of wrk's
     * connections missed (50 reached the origin).
     */
    static URI withoutDefaultPort(URI url) {
        return url.getPort() == 80 && "http".equals(url.getScheme())
                ? URI.create("http://" + url.getHost() + url.getRawPath()
                        + (url.getRawQuery() == null ? "" : "?" + url.getRawQuery()))
                : url;
    }

    private static PeakHarness.Measured<Wrk.Result> measure(PeakHarness h, PeakHarness.Tally<String> tally, String row,
            URI url, long pid, int round) throws IOException, InterruptedException {
        h.say("  round %d: %-26s %s%n", round, row, url);
        return tally.add(row, h.wrk(url, null, row.replaceAll("[^A-Za-z0-9]+", "-").toLowerCase(Locale.ROOT) + "-"
                + round, pid));
    }

    /** The figures as a table, then the bar's line. */
    public static String table(Outcome outcome) {
        StringBuilder s = new StringBuilder(String.format(Locale.ROOT, "body %d bytes. ratio: requests/s over the"
                + " ceiling's in the same round (median, range over rounds). cpu us: the server's CPU per request (the"
                + " full edge's front tier; the bare form's process). model: the requests/s the shared-CPU model"
                + " predicts from the run's own CPU per request at every process, wrk's included (docs/capacity.md),"
                + " and how far the measured rate is from it.%n", outcome.bodyBytes()));
        s.append(String.format(Locale.ROOT, "%-26s %10s %6s %10s %8s %8s %8s %10s %7s%n", "path", "requests/s", "ratio",
                "range", "cpu us", "p50 ms", "p99 ms", "model", "vs"));
        for (Figure<String> r : List.of(outcome.ceiling(), outcome.full(), outcome.bare())) {
            s.append(String.format(Locale.ROOT, "%-26s %10.0f %6.2f %10s %8.1f %8.3f %8.3f %s%n", r.key(),
                    r.medianRequestsPerSecond(), r.medianRatio(), r.ratio().range(), r.medianCpuMicros(), r.medianP50(),
                    r.medianP99(), Figure.modelColumns(r)));
        }
        s.append(outcome.verdict()).append(System.lineSeparator());
        return s.toString();
    }
}
