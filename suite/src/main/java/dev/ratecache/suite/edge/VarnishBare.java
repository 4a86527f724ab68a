package dev.ratecache.suite.edge;

import com.samskivert.mustache.Mustache;
import dev.ratecache.proc.ManagedProcess;
import dev.ratecache.proc.Ports;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * Varnish's least caching config (varnish/peak-bare.vcl: a backend and a TTL cap over the built-in
 * VCL), which ./run-tests.sh peak --edge varnish measures the full front against: started as
 * VarnishEdge starts a tier, so that the two differ in their VCL alone.
 */
public final class VarnishBare implements BareForm.Running {
    static final String TEMPLATE = "peak-bare.vcl";

    private final int port;
    private final ManagedProcess process;

    private VarnishBare(int port, ManagedProcess process) {
        this.port = port;
        this.process = process;
    }

    /** The template in {@code templates} (the varnish/ folder) with {@code backPort} filled in. */
    static String vcl(Path templates, int backPort) throws IOException {
        String template = Files.readString(templates.resolve(TEMPLATE), StandardCharsets.UTF_8);
        return Mustache.compiler().escapeHTML(false).compile(template).execute(Map.of("backPort", backPort));
    }

    /** Writes the VCL into {@code dir}, starts varnishd in the foreground and waits until it accepts. */
    public static VarnishBare start(Path templates, Path dir, int port, int backPort, long cacheMb) throws IOException {
        Files.createDirectories(dir);
        // As root varnishd drops privileges to its own users, which must reach its working directory.
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
        Path vcl = Files.writeString(dir.resolve(TEMPLATE), vcl(templates, backPort));
        ManagedProcess process = ManagedProcess.start("varnish-bare", List.of(VarnishEdge.binary(), "-F", "-T", "none",
                "-n", dir.resolve("varnishd").toString(), "-a", Ports.LOOPBACK + ":" + port, "-f", vcl.toString(),
                "-s", "malloc," + cacheMb + "m"), dir, dir.resolve("varnishd.log"));
        return new VarnishBare(port, process.awaitAccepting("varnishd (bare)", Ports.LOOPBACK, port,
                Duration.ofSeconds(30)));
    }

    @Override
    public URI uri() {
        return URI.create("http://" + Ports.LOOPBACK + ":" + port + "/");
    }

    /** The manager's PID; the child that serves is its child. */
    @Override
    public long pid() {
        return process.pid();
    }

    @Override
    public void close() {
        process.close();
    }
}
