package dev.ratecache.suite.nginx;

import dev.ratecache.accesslog.Printable;
import dev.ratecache.proc.Executables;
import dev.ratecache.proc.LogTail;
import dev.ratecache.proc.ManagedProcess;
import dev.ratecache.proc.Poll;
import dev.ratecache.proc.Ports;
import dev.ratecache.suite.spec.StackSpec;
import dev.ratecache.suite.spec.TierPorts;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * One tier as a real nginx master process in the foreground, with its own prefix folder: conf/,
 * logs/, cache/, temp/. Never the system's nginx, never /etc/nginx.
 */
public final class NginxServer implements AutoCloseable {
    /** The tier it runs; null for an nginx of another config ({@link #of}). */
    private final Tier tier;
    /** What it is called in messages and process names, e.g. "front", "ceiling". */
    private final String name;
    /** Its config file, in {@code prefix}/conf. */
    private final String conf;
    private final Path prefix;
    private final String address;
    private final int port;
    private ManagedProcess process;

    private NginxServer(Tier tier, String name, String conf, Path prefix, String address, int port) {
        this.tier = tier;
        this.name = name;
        this.conf = conf;
        this.prefix = prefix;
        this.address = address;
        this.port = port;
    }

    /**
     * An nginx of a config of its own ({@code prefix}/conf/{@code conf}, already written), run and
     * stopped like the tiers: nginx's ceiling for peak, the model's comparisons with nginx. It
     * listens on 127.0.0.1 and {@code port} (the first of its ports, when it has several: nginx
     * writes its pid file once every listener is bound).
     */
    public static NginxServer of(String name, Path prefix, String conf, int port) throws IOException {
        Files.createDirectories(prefix.resolve("logs"));
        Files.createDirectories(prefix.resolve("temp"));
        return new NginxServer(null, name, conf, prefix, Ports.LOOPBACK, port);
    }

    /** The nginx binary: NGINX_BIN when set, else the one on PATH, else Debian's. */
    public static String binary() {
        return Executables.find("nginx", "NGINX_BIN", "/usr/sbin/nginx");
    }

    /** nginx's version line (e.g. "nginx/1.22.1"), for reports. */
    public static String version() {
        try {
            return ManagedProcess.run(List.of(binary(), "-v"), Duration.ofSeconds(30)).text().trim()
                    .replace("nginx version: ", "");
        } catch (IOException e) {
            return "unknown";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "unknown";
        }
    }

    /** Renders {@code tier} of {@code spec} into {@code prefix}/conf and checks it with {@code nginx -t}; starts nothing. */
    public static NginxServer prepare(Tier tier, StackSpec spec, Path prefix) throws IOException, InterruptedException {
        // The user's own config takes the front's place (--nginx-conf), rewired in a copy.
        boolean own = tier == Tier.FRONT && spec.ownFront().isPresent();
        Path conf = own ? spec.ownFront().get().write(spec, prefix)
                : new NginxRenderer(dev.ratecache.suite.Repo.nginxTemplates()).render(tier, spec, prefix.resolve("conf"));
        // nginx creates (and, as root, hands to its worker user) the leaf cache and temp folders itself.
        Files.createDirectories(prefix.resolve("logs"));
        Files.createDirectories(prefix.resolve("temp"));
        // The tier facing the clients listens on --listen; an edge behind the balancer, and the back end, on loopback.
        TierPorts ports = spec.ports();
        boolean facesClients = tier == Tier.BALANCER || (tier == Tier.FRONT && spec.edges() == 1);
        NginxServer server = new NginxServer(tier, tier.id(), own ? conf.getFileName().toString() : tier.template(), prefix,
                facesClients ? ports.listen() : Ports.LOOPBACK, tier == Tier.BACK ? ports.back() : ports.front());
        server.check(conf);
        return server;
    }

    private List<String> command(String... extra) {
        List<String> command = new ArrayList<>(List.of(binary(),
                "-p", prefix.toAbsolutePath() + "/",
                "-c", "conf/" + conf,
                "-e", "logs/error.log",
                // Only what a harness needs goes here, so the rendered file stays copyable.
                "-g", "daemon off; pid " + pidFile() + ";"));
        command.addAll(List.of(extra));
        return command;
    }

    /**
     * {@code nginx -t}: throws with nginx's own words when the config is wrong, its reason on the
     * first line, which is all a one-line error (up's, a failed cell's) shows.
     */
    public void check(Path conf) throws IOException, InterruptedException {
        Path log = prefix.resolve("logs/nginx-t.log");
        Files.deleteIfExists(log);
        try (ManagedProcess test = ManagedProcess.start("nginx -t " + name, command("-t", "-q"), prefix, log)) {
            int exit = test.waitFor(Duration.ofSeconds(30));
            if (exit != 0) {
                String tail = LogTail.of(log, 20);
                throw new IOException("nginx -t rejects the " + name + " config " + conf + ": " + reason(tail)
                        + "\n" + tail);
            }
        }
    }

    /**
     * nginx's reason in the output of {@code nginx -t}: its first [emerg] (or other) line, without
     * the "nginx: [emerg] " before it and with the rendered folder's path left out of the file it
     * names. It quotes the config, and so the user's flags: escaped to stay one printable line.
     */
    private String reason(String output) {
        String conf = prefix.toAbsolutePath().resolve("conf") + "/";
        return output.lines().filter(line -> line.contains("] ")).findFirst()
                .or(() -> output.lines().filter(line -> !line.isBlank()).findFirst())
                .map(line -> Printable.escape(line.substring(line.indexOf("] ") + 1).strip().replace(conf, ""), 300))
                .orElse("nginx said nothing");
    }

    /**
     * Starts the master and waits until it is up: its pid file written and the tier accepting
     * connections. Accepting alone is not enough: nginx binds its listeners one by one and, when
     * one is taken, retries for about 2 s with the others already listening before it gives up.
     * It writes the pid file only once every listener is bound.
     */
    public NginxServer start() throws IOException {
        return startOn(List.of(), address);
    }

    /**
     * Starts the master on another host, through {@code launcher} (such as {@code ip netns exec NS},
     * which execs nginx in its place, so the PID held is the master's), and waits until it is up
     * and accepts on {@code reachable}: its config says to listen there.
     */
    public NginxServer startOn(List<String> launcher, String reachable) throws IOException {
        if (Ports.accepting(reachable, port)) {
            throw new IOException("port " + port + " is already taken; " + what() + " cannot start");
        }
        List<String> command = new ArrayList<>(launcher);
        command.addAll(command());
        process = ManagedProcess.start("nginx " + name, command, prefix, prefix.resolve("logs/nginx.out"));
        try {
            awaitStarted(process, pidFile(), reachable, port, errorLog(), what());
        } catch (IOException e) {
            close();
            throw e;
        }
        return this;
    }

    private String what() {
        return tier != null ? "the " + name + " tier" : "the " + name + " nginx";
    }

    /**
     * Waits until an nginx master started with {@code pid pidFile} is up: the file names it (written
     * once every listener is bound) and {@code address:port} accepts. Throws, with the tail of its
     * error log, when it exits or takes over 30 s (a busy machine); the caller stops it.
     */
    private static void awaitStarted(ManagedProcess master, Path pidFile, String address, int port, Path errorLog,
            String what) throws IOException {
        Instant deadline = Instant.now().plusSeconds(30);
        while (!(pidFileNames(pidFile, master.pid()) && Ports.accepting(address, port))) {
            if (!master.isAlive() || Instant.now().isAfter(deadline)) {
                throw new IOException(what + " did not start on port " + port + ":\n" + LogTail.of(errorLog, 10));
            }
            Poll.pause(50);
        }
    }

    private static boolean pidFileNames(Path pidFile, long pid) {
        try {
            return Files.readAllLines(pidFile).stream().anyMatch(line -> line.trim().equals(String.valueOf(pid)));
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * Renders {@code spec}'s config of this tier over the running one and checks it with
     * {@code nginx -t}; the master goes on with the old one until {@link #reload()}.
     */
    public void rewrite(StackSpec spec) throws IOException, InterruptedException {
        check(new NginxRenderer(dev.ratecache.suite.Repo.nginxTemplates()).render(tier, spec, prefix.resolve("conf")));
    }

    /**
     * {@code nginx -s reload}: HUP to the master named in the pid file. Returns once the signal is
     * sent; the master starts new workers on the config as it is now and lets the old ones finish theirs.
     */
    public void reload() throws IOException, InterruptedException {
        Path log = prefix.resolve("logs/nginx-s-reload.log");
        try (ManagedProcess signal = ManagedProcess.start("nginx -s reload " + name, command("-s", "reload"), prefix,
                log)) {
            if (signal.waitFor(Duration.ofSeconds(30)) != 0) {
                throw new IOException("nginx -s reload of the " + name + " tier failed: " + LogTail.of(log, 5));
            }
        }
    }

    /**
     * The master's worker processes now, by PID: its children whose title nginx set to "nginx: worker
     * process" (the cache manager and loader are children too, and are not workers).
     */
    public List<Long> workers() {
        return ProcessHandle.of(pid()).stream().flatMap(ProcessHandle::children)
                .filter(child -> title(child.pid()).startsWith("nginx: worker process")).map(ProcessHandle::pid)
                .toList();
    }

    private static String title(long pid) {
        try {
            return Files.readString(Path.of("/proc", String.valueOf(pid), "cmdline")).replace('\0', ' ').strip();
        } catch (IOException gone) {
            return "";
        }
    }

    private Path pidFile() {
        return prefix.toAbsolutePath().resolve("nginx.pid");
    }

    public Path prefix() { return prefix; }
    public int port() { return port; }
    public Path accessLog() { return prefix.resolve("logs/access.log"); }
    public Path errorLog() { return prefix.resolve("logs/error.log"); }
    public long pid() { return process.pid(); }
    public boolean isRunning() { return process != null && process.isAlive(); }

    @Override
    public void close() {
        if (process != null) {
            process.close();
        }
    }
}
