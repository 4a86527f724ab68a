package dev.ratecache.proc;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipalLookupService;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The origin's PostgreSQL, as the suite runs it: Debian's postgresql-15 binaries, a cluster of its
 * own ({@code initdb}) in a data folder under the run folder, {@code postgres} in the foreground on
 * a port of its own on 127.0.0.1, stopped by its PID like the nginx tiers. Never the system's
 * cluster or service, and no {@code pg_ctl}: a daemon it forked would not be the PID we hold.
 *
 * <p>PostgreSQL refuses to run as root, so as root both {@code initdb} and {@code postgres} run as
 * {@code nobody} through {@code setpriv}, which execs rather than forks: the PID is still the
 * postmaster's. The settings are a benchmark's, not a production database's: no fsync, no
 * synchronous commit, no full-page writes (the data is generated at start and thrown away).
 */
public final class PostgresServer implements AutoCloseable {
    /** Set to another folder of PostgreSQL binaries (initdb, postgres, pg_isready); also how tests make it missing. */
    public static final String BIN_VARIABLE = "POSTGRES_BIN_DIR";
    static final String DEBIAN_BIN = "/usr/lib/postgresql/15/bin";
    /** The role the origin connects as: initdb's superuser, trusted on loopback. */
    public static final String USER = "ratecache";
    public static final String DATABASE = "postgres";
    /**
     * Room for the largest pool the suite asks for (--db-pool at most 100) plus the suite's own and
     * PostgreSQL's reserved connections.
     */
    public static final int MAX_CONNECTIONS = 120;
    private static final Duration READY_WITHIN = Duration.ofSeconds(60);
    private static final Duration INITDB_WITHIN = Duration.ofSeconds(120);
    // Fast shutdown (SIGINT) rolls back open transactions and ends at once; past this, SIGKILL.
    private static final Duration STOP_WITHIN = Duration.ofSeconds(10);

    private final ManagedProcess process;
    private final int port;
    private final Path dir;

    private PostgresServer(ManagedProcess process, int port, Path dir) {
        this.process = process;
        this.port = port;
        this.dir = dir;
    }

    /** Where the binaries the suite would run are. */
    public static Path binDir() {
        String configured = System.getenv(BIN_VARIABLE);
        return Path.of(configured != null && !configured.isBlank() ? configured : DEBIAN_BIN);
    }

    /** One line saying why PostgreSQL can't be started, or empty when its binaries are there. */
    public static Optional<String> notInstalled() {
        Path bin = binDir();
        if (Stream.of("initdb", "postgres", "pg_isready").allMatch(b -> Executables.runnable(bin.resolve(b).toString()))) {
            return Optional.empty();
        }
        return Optional.of("--origin-db postgres needs PostgreSQL 15, and " + bin + " has no initdb, postgres and"
                + " pg_isready: run ./run-tests.sh as root to install it, or: sudo apt-get install -y postgresql-15"
                + (System.getenv(BIN_VARIABLE) != null ? " (or fix " + BIN_VARIABLE + ")" : ""));
    }

    /**
     * Starts PostgreSQL on {@code port} (0: a free one) with its cluster in {@code dir}/data, made by
     * initdb unless an earlier start left one there, and waits until it accepts connections. A
     * server that exits or does not get ready is stopped and reported with the end of its log, so
     * a failed start leaves nothing running.
     */
    public static PostgresServer start(Path dir, int port) throws IOException {
        int chosen = port > 0 ? port : Ports.free();
        Path abs = dir.toAbsolutePath();
        Path data = abs.resolve("data");
        Files.createDirectories(abs);
        Path log = abs.resolve("postgres.log");
        if (!Files.isRegularFile(data.resolve("PG_VERSION"))) {
            initdb(data, log);
        }
        List<String> command = asServerUser(List.of(binDir().resolve("postgres").toString(), "-D", data.toString(),
                "-p", String.valueOf(chosen),
                "-c", "listen_addresses=" + Ports.LOOPBACK,
                // TCP only: the origin connects over JDBC, and a socket path under a deep run folder
                // would pass the 107-byte limit of a Unix socket's name.
                "-c", "unix_socket_directories=",
                "-c", "max_connections=" + MAX_CONNECTIONS,
                "-c", "shared_buffers=32MB",
                "-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off",
                // Its log is its standard error, in postgres.log beside the data folder.
                "-c", "logging_collector=off"));
        ManagedProcess process = ManagedProcess.start("postgres", command, abs, log);
        PostgresServer server = new PostgresServer(process, chosen, abs);
        // On a failed start only the postmaster is there to stop: it has forked no backend yet.
        process.awaitReady("accept connections", chosen, READY_WITHIN, server::acceptsConnections, server::output,
                process);
        return server;
    }

    private static void initdb(Path data, Path log) throws IOException {
        Files.createDirectories(data);
        if (isRoot()) {
            // initdb as nobody must own the folder it fills; PostgreSQL insists on mode 0700.
            UserPrincipalLookupService users = data.getFileSystem().getUserPrincipalLookupService();
            PosixFileAttributeView view = Files.getFileAttributeView(data, PosixFileAttributeView.class);
            view.setOwner(users.lookupPrincipalByName("nobody"));
            view.setGroup(users.lookupPrincipalByGroupName("nogroup"));
        }
        Files.setPosixFilePermissions(data, PosixFilePermissions.fromString("rwx------"));
        try {
            ManagedProcess.Outcome outcome = ManagedProcess.run(asServerUser(List.of(
                    binDir().resolve("initdb").toString(), "-D", data.toString(), "--username=" + USER,
                    "--auth=trust", "--encoding=UTF8", "--locale=C", "--no-sync")), data.getParent(), INITDB_WITHIN);
            Files.writeString(log, outcome.text(), java.nio.file.StandardOpenOption.CREATE,
                    java.nio.file.StandardOpenOption.APPEND);
            if (outcome.exitCode() != 0) {
                throw new IOException("initdb exited " + outcome.exitCode() + ": "
                        + outcome.text().strip().replaceAll("\\s*\\n\\s*", " | "));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted during initdb", e);
        }
    }

    /** The command as the server's user: nobody when we are root (PostgreSQL refuses root), else ourselves. */
    static List<String> asServerUser(List<String> command) {
        if (!isRoot()) {
            return command;
        }
        List<String> as = new ArrayList<>(List.of("setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups", "--"));
        as.addAll(command);
        return as;
    }

    static boolean isRoot() {
        try {
            return Integer.valueOf(0).equals(Files.getAttribute(Path.of("/proc/self"), "unix:uid"));
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
            return "root".equals(System.getProperty("user.name"));
        }
    }

    public int port() { return port; }
    public long pid() { return process.pid(); }
    public Path dir() { return dir; }
    public Path log() { return process.log(); }
    public boolean isRunning() { return process.isAlive(); }

    /** What it printed last, on one line: for error messages. */
    public String output() {
        return process.lastWords();
    }

    /** The JDBC URL the origin connects to. */
    public String jdbcUrl() {
        return "jdbc:postgresql://" + Ports.LOOPBACK + ":" + port + "/" + DATABASE;
    }

    /** The Spring Boot arguments that point the origin's datasource here. */
    public List<String> originArgs() {
        return List.of("--spring.datasource.url=" + jdbcUrl(), "--spring.datasource.username=" + USER);
    }

    /** Whether it accepts connections now ({@code pg_isready}: 0 only once start-up and recovery are over). */
    public boolean acceptsConnections() {
        if (!process.isAlive()) {
            return false;
        }
        try {
            return ManagedProcess.run(List.of(binDir().resolve("pg_isready").toString(), "-q", "-h", Ports.LOOPBACK,
                    "-p", String.valueOf(port), "-U", USER, "-d", DATABASE, "-t", "2"), Duration.ofSeconds(10))
                    .exitCode() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /**
     * CPU seconds PostgreSQL has used, from /proc: the postmaster, every backend it forked for a
     * connection and its helper processes, the live ones read directly and the ended ones from the
     * postmaster's account of the children it reaped. Empty once it is gone.
     */
    public OptionalDouble cpuSeconds() {
        return ProcCpu.treeSecondsWithReaped(process.pid());
    }

    /** Ends it as a crash would (SIGKILL to the postmaster and every backend at once): for tests of a database that dies. */
    public void kill() {
        ProcessHandle.of(process.pid()).ifPresent(handle -> {
            List<ProcessHandle> backends = handle.descendants().toList();
            handle.destroyForcibly();
            backends.forEach(ProcessHandle::destroyForcibly);
        });
    }

    /**
     * Stops it by its PID: SIGINT, PostgreSQL's fast shutdown (open transactions rolled back,
     * clients disconnected; SIGTERM would wait for every client to leave), then SIGKILL to it and
     * its backends if it is not gone within 10 s.
     */
    @Override
    public void close() {
        if (process.isAlive()) {
            try {
                process.signal("INT");
                ProcessHandle.of(process.pid()).ifPresent(h -> {
                    try {
                        h.onExit().get(STOP_WITHIN.toSeconds(), TimeUnit.SECONDS);
                    } catch (Exception stillRunning) {
                        // ManagedProcess's close below ends it and its backends.
                    }
                });
            } catch (IOException e) {
                // Then ManagedProcess's close stops it.
            }
        }
        process.close();
    }
}
