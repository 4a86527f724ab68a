package dev.ratecache.suite.peak;

import dev.ratecache.proc.ProcCpu;
import dev.ratecache.proc.Ports;
import dev.ratecache.suite.origin.OriginServer;
import dev.ratecache.suite.spec.TlsFiles;
import dev.ratecache.suite.stack.Stack;
import dev.ratecache.suite.stack.StackPorts;
import dev.ratecache.suite.switches.StackSwitches;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.PublicKey;
import java.security.interfaces.ECPublicKey;
import java.security.interfaces.RSAPublicKey;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;
import java.util.stream.IntStream;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;

/**
 * The edge cache's HIT path over TLS ({@code ./run-tests.sh peak --tls}): with keep-alive, with a
 * new handshake per request (resumed from nginx's session cache, and full), and over HTTP/2, each
 * as a ratio to nginx's {@code return 200} over the same TLS setup ({@link CeilingServer#startTls}:
 * the front's own TLS snippets and certificate), measured right before it in the same round; and
 * the cleartext HIT path against the cleartext ceiling, for reference.
 */
public final class TlsPeak {
    /** What one row measures: the front's path, and the client that pushes it and its ceiling. */
    public enum Kind {
        CLEARTEXT("cleartext keep-alive HIT"),
        TLS_KEEPALIVE("TLS keep-alive HIT (HTTP/1.1)"),
        TLS_RESUMED("TLS resumed handshake per request"),
        TLS_FULL("TLS full handshake per request"),
        HTTP2("HTTP/2 HIT, multiplexed");

        private final String label;

        Kind(String label) {
            this.label = label;
        }

        public String label() {
            return label;
        }
    }

    /**
     * One run of a client against one server.
     *
     * @param perSecond requests/s, or connections/s with one handshake and one request per connection
     * @param count     requests (or connections) answered
     * @param failures  errors, and answers that were not 2xx or 3xx
     * @param cpuMicros the server's nginx CPU (master and workers) per request, in microseconds
     * @param predicted the shared-CPU model's rate for the run's own CPU per request, nginx's and the client's
     */
    public record Sample(double perSecond, long count, long failures, double cpuMicros, double predicted) {
        /** Without a prediction. */
        public Sample(double perSecond, long count, long failures, double cpuMicros) {
            this(perSecond, count, failures, cpuMicros, Double.NaN);
        }
    }

    /** A row's runs over the rounds: the front's and, in the same round right before it, the ceiling's. */
    public record Row(Kind kind, String client, List<Sample> front, List<Sample> ceiling) {
        /** Each round's front rate over its ceiling's. */
        public List<Double> ratios() {
            return IntStream.range(0, front.size()).mapToObj(i -> Spread.ratio(front.get(i).perSecond(),
                    ceiling.get(i).perSecond())).toList();
        }

        /** Each round's ceiling CPU per request over the front's: the ratio if nginx's CPU were all that limits. */
        public List<Double> cpuRatios() {
            return IntStream.range(0, front.size()).mapToObj(i -> ceiling.get(i).cpuMicros() / front.get(i).cpuMicros())
                    .toList();
        }

        public Spread ratio() { return new Spread(ratios()); }
        public double medianCpuRatio() { return new Spread(cpuRatios()).median(); }
        public double medianRatio() { return ratio().median(); }
        public double medianFront() { return median(front, Sample::perSecond); }
        public double medianCeiling() { return median(ceiling, Sample::perSecond); }
        public double medianFrontCpu() { return median(front, Sample::cpuMicros); }
        public double medianCeilingCpu() { return median(ceiling, Sample::cpuMicros); }
        public double medianFrontPredicted() { return median(front, Sample::predicted); }
        public long failures() {
            return front.stream().mapToLong(Sample::failures).sum() + ceiling.stream().mapToLong(Sample::failures).sum();
        }

        private static double median(List<Sample> samples, ToDoubleFunction<Sample> figure) {
            return new Spread(samples.stream().map(figure::applyAsDouble).toList()).median();
        }
    }

    /** Every row, the body size, what the handshake was, and anything that makes a figure doubtful. */
    public record Outcome(int bodyBytes, String handshake, List<Row> rows, List<String> warnings) {
        public Row row(Kind kind) {
            return rows.stream().filter(r -> r.kind() == kind).findFirst().orElseThrow();
        }
    }

    private TlsPeak() {
    }

    public static Outcome run(PeakOptions options, PrintWriter progress) throws IOException, InterruptedException {
        StackSwitches open = PeakRun.open(options.switches());
        Wrk wrk = new Wrk(options.load());
        H2load h2load = new H2load(H2load.connectionsFor(options.load().connections(), options.streams()),
                options.streams());
        Path out = options.dir().resolve("clients");
        try (PeakHarness h = new PeakHarness(options, progress)) {
            OriginServer origin = h.startOrigin();
            Stack tls = h.started(Stack.around(origin, open, options.ports(), options.dir().resolve("tls")));
            // The reference beside it: the same tiers in cleartext on ports of their own, before the same origin.
            Stack cleartext = h.started(Stack.around(origin, open.copy().tls(false),
                    StackPorts.free().origin(options.ports().origin(), options.ports().management()),
                    options.dir().resolve("cleartext")));
            TlsFiles trust = tls.tls().orElseThrow(() -> new IOException("the front tier has no TLS (--tls)"));
            URI clearUrl = cleartext.frontUri().resolve(options.path());
            URI tlsUrl = tls.frontUri().resolve(options.path());
            int bodyBytes = PeakHarness.warm(clearUrl);
            PeakHarness.warm(tlsUrl, HttpClient.newBuilder().sslContext(trust.sslContext())
                    .connectTimeout(Duration.ofSeconds(2)).build());
            // s_time asks HTTP/1.0 without a Host header: $host is the server's name, another cache key.
            String handshake = warmHostless(tlsUrl, options.path(), trust.sslContext());
            CeilingServer plainCeiling = h.started(CeilingServer.start(options.dir().resolve("ceiling"),
                    options.workers(), Ports.free(), bodyBytes));
            CeilingServer tlsCeiling = h.started(CeilingServer.startTls(options.dir().resolve("ceiling-tls"),
                    options.workers(), Ports.free(), bodyBytes, tls.tiers().frontConfigFolder().orElseThrow(),
                    options.switches().http2()));

            Map<Kind, String> clients = new EnumMap<>(Kind.class);
            clients.put(Kind.CLEARTEXT, options.load().describe());
            clients.put(Kind.TLS_KEEPALIVE, options.load().describe());
            clients.put(Kind.TLS_RESUMED, STime.describe(STime.Handshake.RESUMED));
            clients.put(Kind.TLS_FULL, STime.describe(STime.Handshake.FULL));
            clients.put(Kind.HTTP2, h2load.describe());
            Map<Kind, List<Sample>> fronts = new EnumMap<>(Kind.class);
            Map<Kind, List<Sample>> ceilings = new EnumMap<>(Kind.class);
            // What h2load negotiated, by ALPN's choice: "h2" alone, unless a server fell back to HTTP/1.1.
            Map<String, String> h2 = new java.util.TreeMap<>();
            h.rounds(round -> {
                for (Kind kind : PeakHarness.inTurn(List.of(Kind.values()), round)) {
                    boolean clear = kind == Kind.CLEARTEXT;
                    CeilingServer ceiling = clear ? plainCeiling : tlsCeiling;
                    Stack stack = clear ? cleartext : tls;
                    URI frontUrl = clear ? clearUrl : tlsUrl;
                    String name = kind.name().toLowerCase(Locale.ROOT) + "-" + round;
                    h.say("  round %d: %-34s %-22s ceiling, then %s%n", round, kind.label(), clients.get(kind), frontUrl);
                    ceilings.computeIfAbsent(kind, x -> new ArrayList<>()).add(measure(kind, ceiling.uri().resolve(
                            options.path()), ceiling.pid(), wrk, h2load, options.load().duration(), out, "ceiling-" + name, h2, options.load()));
                    fronts.computeIfAbsent(kind, x -> new ArrayList<>()).add(h.notReachingOrigin(kind.label(), round,
                            () -> measure(kind, frontUrl, stack.frontPid(), wrk, h2load, options.load().duration(),
                                    out, "front-" + name, h2, options.load())));
                }
            });
            List<Row> rows = new ArrayList<>();
            for (Kind kind : Kind.values()) {
                Row row = new Row(kind, clients.get(kind), fronts.get(kind), ceilings.get(kind));
                if (row.failures() > 0) {
                    h.warn(kind.label() + ": " + row.failures() + " requests failed or were not 2xx/3xx"
                            + " (see " + out + ")");
                }
                rows.add(row);
            }
            h2.keySet().stream().filter(a -> !a.equals("h2")).forEach(a -> h.warn(
                    "HTTP/2 HIT: h2load was answered over " + (a.isEmpty() ? "no ALPN protocol" : a) + ", not h2"));
            if (h2.containsKey("h2")) {
                handshake += "; h2load: " + h2.get("h2");
            }
            return new Outcome(bodyBytes, handshake, rows, h.warnings());
        }
    }

    /**
     * One client run of {@code kind} against {@code url}, with the CPU of the nginx whose master is
     * {@code pid}, and the rate the shared-CPU model predicts from that nginx's and the client's own CPU
     * per request: wrk's connections in flight, s_time's one connection at a time, h2load's streams.
     */
    private static Sample measure(Kind kind, URI url, long pid, Wrk wrk, H2load h2load, Duration duration, Path dir,
            String name, Map<String, String> seen, Wrk.Load load) throws IOException, InterruptedException {
        double before = ProcCpu.treeSeconds(pid);
        Sample sample;
        double clientSeconds;
        int threads = 1;
        int inFlight = 1;
        switch (kind) {
            case CLEARTEXT, TLS_KEEPALIVE -> {
                Counted<Wrk.Result> run = wrk.runCounted(url, null, dir, name);
                Wrk.Result r = run.result();
                sample = new Sample(r.requestsPerSecond(), r.requests(), r.non2xx() + r.socketErrors(), 0);
                clientSeconds = run.cpuSeconds();
                threads = load.threads();
                inFlight = load.connections();
            }
            case TLS_RESUMED, TLS_FULL -> {
                STime.Handshake handshake = kind == Kind.TLS_FULL ? STime.Handshake.FULL : STime.Handshake.RESUMED;
                Counted<STime.Result> run = STime.runCounted(url.getHost(), url.getPort(), url.getRawPath(), handshake,
                        duration, dir, name);
                STime.Result r = run.result();
                // A resumed row whose sessions were not resumed measured full handshakes.
                long notResumed = handshake == STime.Handshake.RESUMED ? r.connections() - r.resumed() : 0;
                sample = new Sample(r.connectionsPerSecond(), r.connections(), notResumed, 0);
                clientSeconds = run.cpuSeconds();
            }
            default -> {
                Counted<H2load.Result> run = h2load.runCounted(url, duration, dir, name);
                H2load.Result r = run.result();
                seen.put(r.application(), r.tls());
                sample = new Sample(r.requestsPerSecond(), r.succeeded(), r.failed(), 0);
                clientSeconds = run.cpuSeconds();
                inFlight = h2load.inFlight();
            }
        }
        double used = ProcCpu.treeSeconds(pid) - before;
        long n = sample.count();
        return new Sample(sample.perSecond(), n, sample.failures(), n == 0 ? Double.NaN : used * 1e6 / n,
                PeakHarness.predicted(List.of(pid), new double[] {used}, n, clientSeconds, threads, inFlight));
    }

    /**
     * Asks {@code path} as s_time does (HTTP/1.0, no Host) until the front answers it from its cache;
     * returns the handshake it made: protocol, cipher suite and the certificate's key.
     */
    static String warmHostless(URI url, String path, SSLContext context) throws IOException {
        String status = "";
        for (int attempt = 0; attempt < 5; attempt++) {
            try (SSLSocket socket = (SSLSocket) context.getSocketFactory().createSocket(url.getHost(), url.getPort())) {
                socket.setSoTimeout(30_000);
                socket.getOutputStream().write(("GET " + path + " HTTP/1.0\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
                socket.getOutputStream().flush();
                String head = head(socket.getInputStream());
                status = head.lines().findFirst().orElse("");
                if (status.contains(" 200 ") && head.lines().anyMatch(l -> l.equalsIgnoreCase("X-Cache-Status: HIT"))) {
                    var session = socket.getSession();
                    return session.getProtocol() + " " + session.getCipherSuite() + ", certificate "
                            + key(session.getPeerCertificates()[0].getPublicKey());
                }
            }
        }
        throw new IOException(url + " does not answer s_time's request (GET " + path + " HTTP/1.0, no Host) from its"
                + " cache (last answer: " + status + ")");
    }

    /** The response's status line and headers. */
    private static String head(InputStream in) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        int c;
        while ((c = in.read()) != -1) {
            bytes.write(c);
            String s = bytes.toString(StandardCharsets.ISO_8859_1);
            if (s.endsWith("\r\n\r\n")) {
                break;
            }
        }
        return bytes.toString(StandardCharsets.ISO_8859_1).replace("\r\n", "\n");
    }

    /** A certificate's key as its handshake signs: "ECDSA P-256" and the like, "RSA 2048". */
    static String key(PublicKey key) {
        if (key instanceof ECPublicKey ec) {
            return "ECDSA P-" + ec.getParams().getCurve().getField().getFieldSize();
        }
        if (key instanceof RSAPublicKey rsa) {
            return "RSA " + rsa.getModulus().bitLength();
        }
        return key.getAlgorithm();
    }

    /** The figures as a table: each row's rate beside its ceiling's, the ratio (median, range) and the CPU. */
    public static String table(Outcome outcome) {
        StringBuilder s = new StringBuilder();
        s.append(String.format(Locale.ROOT, "body %d bytes; TLS: %s. ratio: the front's rate over the ceiling's"
                + " (nginx's return 200 over the same TLS setup; cleartext for the first row) in the same round, median"
                + " and range over rounds. per s: requests/s, or connections/s where each connection makes its own"
                + " handshake for one request (s_time, one connection at a time: its own handshake work is in the"
                + " figure too). cpu us: nginx's CPU per request (the front's, the ceiling's); cpu: the ceiling's over the"
                + " front's, round by round, which a busy machine disturbs far less than the rates. model: the front's"
                + " rate the shared-CPU model predicts from nginx's and the client's own CPU per request"
                + " (docs/capacity.md), and how far the measured rate is from it.%n", outcome.bodyBytes(), outcome.handshake()));
        s.append(String.format(Locale.ROOT, "%-34s %-22s %10s %10s %6s %10s %8s %8s %6s %10s %7s%n", "path", "client",
                "front/s", "ceiling/s", "ratio", "range", "cpu us", "ceil us", "cpu", "model", "vs"));
        for (Row r : outcome.rows()) {
            double predicted = r.medianFrontPredicted();
            s.append(String.format(Locale.ROOT, "%-34s %-22s %10.0f %10.0f %6.2f %10s %8.1f %8.1f %6.2f %s%n",
                    r.kind().label(), r.client(), r.medianFront(), r.medianCeiling(), r.medianRatio(),
                    r.ratio().range(), r.medianFrontCpu(), r.medianCeilingCpu(), r.medianCpuRatio(),
                    Figure.modelColumns(r.medianFront(), predicted)));
        }
        return s.toString();
    }
}
