package dev.ratecache.suite.edge;

import com.samskivert.mustache.Mustache;
import dev.ratecache.proc.ManagedProcess;
import dev.ratecache.proc.Ports;
import dev.ratecache.proc.RedisServer;
import dev.ratecache.suite.spec.StackSpec;
import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Pattern;

/**
 * One product's folder of templates (haproxy/, varnish/): Mustache with the snippets as partials,
 * rendered into one plain file per tier; and the start of a tier, which the suite holds by its PID.
 */
final class ProductTemplates {
    /** The banner's paragraph that says the file is a template, which its rendered copy is not. */
    private static final Pattern TEMPLATE_NOTE = Pattern.compile("(?m)^#\\R# This file is a template.*\\R(?:# (?!-).*\\R)*");
    private static final Duration READY = Duration.ofSeconds(20);

    private final Path folder;

    ProductTemplates(Path folder) {
        this.folder = folder;
    }

    /** The product's folder in the checkout, e.g. varnish/. */
    Path folder() {
        return folder;
    }

    /** Renders template {@code name} into {@code dir}, under the same name, with a first line naming it. */
    Path write(String name, Map<String, Object> context, Path dir) throws IOException {
        return write(name, context, dir, name);
    }

    /** The template {@code name} rendered to {@code dir}/{@code target}: one template for several tiers alike. */
    Path write(String name, Map<String, Object> context, Path dir, String target) throws IOException {
        Path file = dir.resolve(target);
        String text = "# Rendered from the template " + folder.getFileName() + "/" + name + " by the suite.\n"
                + TEMPLATE_NOTE.matcher(render(name, context)).replaceFirst("");
        Files.writeString(file, text, StandardCharsets.UTF_8);
        return file;
    }

    private String render(String name, Map<String, Object> context) throws IOException {
        // Missing variables are errors, not empty strings: a typo in a template must fail loudly.
        Mustache.Compiler compiler = Mustache.compiler().escapeHTML(false).strictSections(true)
                .withLoader(partial -> new StringReader(read(partial)));
        try {
            return compiler.compile(read(name)).execute(context);
        } catch (UncheckedIOException e) {
            throw e.getCause();
        } catch (RuntimeException e) {
            throw new IOException("cannot render " + folder.getFileName() + "/" + name + ": " + e.getMessage(), e);
        }
    }

    private String read(String name) {
        try {
            return Files.readString(folder.resolve(name), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(new IOException("template " + name + " is missing from " + folder, e));
        }
    }

    /**
     * Starts {@code command} as tier {@code name} of {@code product}, logging to {@code dir}, and
     * returns once it accepts connections on {@code address:port}; stops it and throws with its
     * last words when it exits or is not up in time.
     */
    static ManagedProcess startTier(String product, String name, List<String> command, Path dir, String address,
            int port) throws IOException {
        return ready(product, name, ManagedProcess.start(product + "-" + name, command, dir, dir.resolve(name + ".log")),
                address, port);
    }

    /** As {@link #startTier(String, String, List, Path, String, int)}, its standard output to {@code out} alone. */
    static ManagedProcess startTier(String product, String name, List<String> command, Path dir, String address,
            int port, Path out) throws IOException {
        return ready(product, name,
                ManagedProcess.start(product + "-" + name, command, dir, out, dir.resolve(name + ".log")), address, port);
    }

    private static ManagedProcess ready(String product, String name, ManagedProcess process, String address, int port)
            throws IOException {
        return process.awaitAccepting(product + "'s " + name + " tier", address, port, READY);
    }

    /** Starts one tier and returns its process once it accepts connections. */
    @FunctionalInterface
    interface TierStart {
        ManagedProcess start() throws IOException;
    }

    /** Reads a tier's log into events, once the tier has stopped. */
    @FunctionalInterface
    interface EventLog {
        List<EdgeEvent> read() throws IOException;
    }

    /** Stops the started tiers, front first, each by its PID, leaving their logs complete. */
    @FunctionalInterface
    interface Stopping {
        void stop(List<ManagedProcess> tiers);
    }

    /**
     * {@code signal} to every tier at once (the product's own graceful stop, which writes out its
     * logs), then up to {@code within} for each to end; what has not ended is stopped as any process.
     */
    static Stopping gracefully(String signal, java.time.Duration within) {
        return tiers -> {
            try {
                for (ManagedProcess tier : tiers) {
                    try {
                        tier.signal(signal);
                    } catch (IOException gone) {
                        // Already ended: nothing to wait for.
                    }
                }
                for (ManagedProcess tier : tiers) {
                    try {
                        tier.waitFor(within);
                    } catch (IllegalStateException late) {
                        // Still running: stopped below.
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                tiers.forEach(ManagedProcess::close);
            }
        };
    }

    /**
     * Starts the back tier, then the front: the back first, so that the front never answers 503;
     * if either fails, what had started is stopped by its PID. Closing stops them once, through
     * {@code stopping}; {@code frontLog} and {@code backLog} read each tier's events once stopped.
     */
    static Edge.Running backThenFront(StackSpec spec, TierStart back, TierStart front, Stopping stopping,
            EventLog frontLog, EventLog backLog) throws IOException {
        List<ManagedProcess> started = new ArrayList<>();
        try {
            started.add(back.start());
            started.add(0, front.start());
        } catch (IOException | RuntimeException e) {
            started.forEach(ManagedProcess::close);
            throw e;
        }
        URI uri = frontUri(spec);
        AtomicBoolean closed = new AtomicBoolean();
        return new Edge.Running() {
            @Override public URI frontUri() { return uri; }
            @Override public List<Long> pids() { return started.stream().map(ManagedProcess::pid).toList(); }
            @Override public void close() {
                if (closed.compareAndSet(false, true)) {
                    stopping.stop(started);
                }
            }
            @Override public List<EdgeEvent> frontEvents() throws IOException { return frontLog.read(); }
            @Override public List<EdgeEvent> backEvents() throws IOException { return backLog.read(); }
        };
    }

    /** Closes what was started, the last first, each whatever the others threw: a failing start's clean-up. */
    static void closeInReverse(List<? extends AutoCloseable> started) {
        for (int i = started.size() - 1; i >= 0; i--) {
            try {
                started.get(i).close();
            } catch (Exception ignored) {
                // Already failing or closing: the first error is the one worth reporting.
            }
        }
    }

    /** The spec a start goes on with, and the fleet's Redis started for it (null when none was). */
    record WithFleetRedis(StackSpec spec, RedisServer server) {}

    /**
     * The fleet's Redis, started in {@code dir}/fleet-redis on a free port and added to
     * {@code started} when the spec needs one (the shared fleet limit, a quota) and --fleet-redis names
     * none; the spec then names its address.
     */
    static WithFleetRedis startFleetRedis(StackSpec spec, Path dir, List<AutoCloseable> started) throws IOException {
        if (!spec.needsRedis() || spec.fleet().redis().isPresent()) {
            return new WithFleetRedis(spec, null);
        }
        RedisServer redis = RedisServer.start(dir.resolve("fleet-redis"), Ports.free());
        started.add(redis);
        return new WithFleetRedis(spec.withFleetRedis(Ports.LOOPBACK + ":" + redis.port()), redis);
    }

    /** --tls's certificate and key in force: the run's throwaway CA's once it is made, or the user's. */
    static dev.ratecache.suite.spec.TlsFiles tlsFiles(StackSpec spec) throws IOException {
        return spec.tls().flatMap(StackSpec.Tls::files).orElseThrow(() -> new IOException("--tls has no certificate"
                + " yet: make the throwaway CA first (ThrowawayCa), or give --tls-cert and --tls-key"));
    }

    /**
     * What a product that reads the certificate and key files itself renders of --tls: both by
     * absolute path, and whether HTTP/2 is offered.
     */
    static Map<String, Object> tlsContext(StackSpec spec) throws IOException {
        dev.ratecache.suite.spec.TlsFiles files = tlsFiles(spec);
        Map<String, Object> t = new java.util.LinkedHashMap<>();
        t.put("certificate", files.certificate().toAbsolutePath().toString());
        t.put("key", files.key().toAbsolutePath().toString());
        t.put("http2", spec.tls().orElseThrow().http2());
        return t;
    }

    /** Where a client on this machine reaches the tier facing the clients: https with --tls, on the loopback. */
    static URI frontUri(StackSpec spec) {
        return URI.create((spec.tls().isPresent() ? "https" : "http") + "://" + Ports.LOOPBACK + ":"
                + spec.ports().front() + "/");
    }

    /** An origin's port, 80 when its URL names none. */
    static int port(URI origin) {
        return origin.getPort() != -1 ? origin.getPort() : 80;
    }
}
