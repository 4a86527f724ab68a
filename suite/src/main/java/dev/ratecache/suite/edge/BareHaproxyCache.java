package dev.ratecache.suite.edge;

import dev.ratecache.proc.Ports;
import dev.ratecache.proc.Executables;
import dev.ratecache.proc.ManagedProcess;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * HAProxy's cache (Debian's haproxy 2.6) in front of the same back tier as the edge: HAProxy's bare
 * form, so that ./run-tests.sh peak can put nginx's HIT path beside the in-memory cache users weigh
 * it against, and peak --edge haproxy its full edge.
 * Its config is the least that caches: no log, no limits, no headers added. That is HAProxy's
 * best case, so "ahead of HAProxy" is claimed only against its fastest HIT path.
 */
public final class BareHaproxyCache implements BareForm.Running {
    private final int port;
    private final ManagedProcess process;

    private BareHaproxyCache(int port, ManagedProcess process) {
        this.port = port;
        this.process = process;
    }

    /** HAPROXY_BIN when set, else haproxy on PATH, else Debian's. */
    public static String binary() {
        return Executables.find("haproxy", "HAPROXY_BIN", "/usr/sbin/haproxy");
    }

    /**
     * The spec's worker count as HAProxy's threads, so that peak's row sets HAProxy's cache beside
     * nginx's HIT at the same count; null for "auto", which is HAProxy's own default (one per CPU).
     */
    static Integer threads(String workers) {
        return workers.matches("[0-9]+") ? Integer.valueOf(workers) : null;
    }

    /**
     * The config: {@code threads} as nginx's worker count (null: HAProxy's default, one per CPU), a
     * 100 MB cache in memory that keeps a response as long as its Cache-Control allows (up to a day).
     */
    static String config(Integer threads, int port, int backPort) {
        return """
                # HAProxy's cache for ./run-tests.sh peak: in front of the back tier, like the
                # edge, with nothing but the cache, so the HIT path is HAProxy's fastest.
                # https://docs.haproxy.org/2.6/configuration.html#6
                global
                %s  # Debian's default file-descriptor limit; maxconn sized to fit under it.
                  maxconn 4000
                defaults
                  mode http
                  timeout connect 5s
                  timeout client 30s
                  timeout server 30s
                cache edge
                  total-max-size 100
                  max-age 86400
                frontend peak
                  bind %s:%d
                  default_backend tiers
                backend tiers
                  http-request cache-use edge
                  http-response cache-store edge
                  server back %s:%d
                """.formatted(threads == null ? "" : "  nbthread " + threads + "\n", Ports.LOOPBACK, port,
                Ports.LOOPBACK, backPort);
    }

    /** HAProxy on {@code config}, in the foreground (-db), so that the PID the suite holds is HAProxy's own. */
    static List<String> command(Path config) {
        return List.of(binary(), "-db", "-f", config.toString());
    }

    /** Writes the config into {@code dir}, starts HAProxy in the foreground and waits until it accepts. */
    public static BareHaproxyCache start(Path dir, Integer threads, int port, int backPort) throws IOException {
        Files.createDirectories(dir);
        Path config = dir.resolve("haproxy.cfg");
        Files.writeString(config, config(threads, port, backPort));
        ManagedProcess process = ManagedProcess.start("haproxy", command(config), dir, dir.resolve("haproxy.log"));
        return new BareHaproxyCache(port, process.awaitAccepting("haproxy", Ports.LOOPBACK, port, Duration.ofSeconds(20)));
    }

    @Override
    public URI uri() {
        return URI.create("http://" + Ports.LOOPBACK + ":" + port + "/");
    }

    @Override
    public long pid() {
        return process.pid();
    }

    @Override
    public void close() {
        process.close();
    }
}
