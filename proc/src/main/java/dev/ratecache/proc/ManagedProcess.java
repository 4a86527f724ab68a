package dev.ratecache.proc;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * A child process the suite started and must stop: by its PID, with its descendants, on every
 * path out (normal close, exception, Ctrl-C, JVM exit).
 */
public final class ManagedProcess implements AutoCloseable {
    private static final Set<ManagedProcess> LIVE = ConcurrentHashMap.newKeySet();

    static {
        // Ctrl-C and kill -TERM run shutdown hooks: nothing the suite started outlives it.
        Runtime.getRuntime().addShutdownHook(new Thread(ManagedProcess::stopAll, "stop-children"));
    }

    private final String name;
    private final Process process;
    private final Path log;

    private ManagedProcess(String name, Process process, Path log) {
        this.name = name;
        this.process = process;
        this.log = log;
    }

    /** The java launcher of the JVM the suite runs on: every Java child uses the same JDK. */
    public static String javaBinary() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    /** Starts {@code command}, its output appended to {@code log}. */
    public static ManagedProcess start(String name, List<String> command, Path workDir, Path log)
            throws IOException {
        Files.createDirectories(log.toAbsolutePath().getParent());
        return start(name, new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())), workDir, log);
    }

    /** Starts {@code command} with its standard output to {@code out} alone (a result to read), its errors to {@code log}. */
    public static ManagedProcess start(String name, List<String> command, Path workDir, Path out, Path log)
            throws IOException {
        return start(name, command, workDir, out, log, java.util.Map.of());
    }

    /** As {@link #start(String, List, Path, Path, Path)}, with {@code environment} added to this JVM's. */
    public static ManagedProcess start(String name, List<String> command, Path workDir, Path out, Path log,
            java.util.Map<String, String> environment) throws IOException {
        Files.createDirectories(log.toAbsolutePath().getParent());
        ProcessBuilder builder = new ProcessBuilder(command).redirectOutput(out.toFile())
                .redirectError(ProcessBuilder.Redirect.appendTo(log.toFile()));
        builder.environment().putAll(environment);
        return start(name, builder, workDir, log);
    }

    private static ManagedProcess start(String name, ProcessBuilder builder, Path workDir, Path log) throws IOException {
        builder.directory(workDir == null ? null : workDir.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        ManagedProcess managed = new ManagedProcess(name, builder.start(), log);
        LIVE.add(managed);
        return managed;
    }

    /**
     * How a one-shot command ended: its exit code, and its standard output and errors, each whole.
     */
    public record Outcome(List<String> command, int exitCode, String stdout, String stderr) {
        /** Everything it said, its standard output first: for messages (nginx -v, for one, answers on its errors). */
        public String text() {
            return stdout + stderr;
        }

        /** Its standard output when it exited 0; otherwise an IOException quoting the command, its exit code and all it said. */
        public String stdoutIfSucceeded() throws IOException {
            if (exitCode != 0) {
                throw new IOException(String.join(" ", command) + " exited " + exitCode + ": " + text().strip());
            }
            return stdout;
        }
    }

    /** As {@link #run(List, Path, java.util.Map, Duration)}, in this JVM's working directory and environment. */
    public static Outcome run(List<String> command, Duration timeout) throws IOException, InterruptedException {
        return run(command, null, java.util.Map.of(), timeout);
    }

    /** As {@link #run(List, Path, java.util.Map, Duration)}, with this JVM's environment. */
    public static Outcome run(List<String> command, Path workDir, Duration timeout)
            throws IOException, InterruptedException {
        return run(command, workDir, java.util.Map.of(), timeout);
    }

    /**
     * Runs a short-lived command to its end and returns what it said: a tool's answer (nginx -v,
     * getconf, ip, gixy), or a command line under test. It is held like every other child, so
     * Ctrl-C stops it too; past {@code timeout} it is stopped with its descendants ({@link #close})
     * and this throws an IOException naming it. Standard input is empty.
     *
     * @param workDir     where it runs; null for this JVM's working directory
     * @param environment added to this JVM's
     */
    public static Outcome run(List<String> command, Path workDir, java.util.Map<String, String> environment,
            Duration timeout) throws IOException, InterruptedException {
        // Files, not pipes: reading them never blocks on a descendant that still holds the pipe open.
        Path out = Files.createTempFile("one-shot", ".out");
        Path err = Files.createTempFile("one-shot", ".err");
        try {
            ProcessBuilder builder = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile());
            builder.environment().putAll(environment);
            try (ManagedProcess p = start(command.get(0), builder, workDir, null)) {
                if (!p.process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                    throw new IOException(String.join(" ", command) + " did not finish within " + timeout.toSeconds() + " s");
                }
                return new Outcome(List.copyOf(command), p.process.exitValue(), text(out), text(err));
            }
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }

    /** A tool's output as text; bytes that are not UTF-8 become U+FFFD rather than an error. */
    private static String text(Path file) throws IOException {
        return new String(Files.readAllBytes(file), java.nio.charset.StandardCharsets.UTF_8);
    }

    /**
     * Returns this process once {@code address:port} accepts connections; stops it and throws with
     * its last words when it exits first or is not up {@code within}: "{@code what} did not start
     * on port N: ...".
     */
    public ManagedProcess awaitAccepting(String what, String address, int port, Duration within) throws IOException {
        long deadline = System.nanoTime() + within.toNanos();
        while (!Ports.accepting(address, port)) {
            if (!isAlive() || System.nanoTime() > deadline) {
                close();
                throw new IOException(what + " did not start on port " + port + ": " + logTail(5));
            }
            Poll.pause(50);
        }
        return this;
    }

    /**
     * Waits until {@code ready} says the process serves; when it exits first, or is not ready
     * {@code within}, stops it through {@code stop} and throws with {@code output}: "NAME exited
     * during start-up on port N: ..." or "NAME did not {@code doing} on port N within S s: ...".
     */
    public void awaitReady(String doing, int port, Duration within, java.util.function.BooleanSupplier ready,
            java.util.function.Supplier<String> output, AutoCloseable stop) throws IOException {
        long deadline = System.nanoTime() + within.toNanos();
        while (!ready.getAsBoolean()) {
            boolean exited = !isAlive();
            if (exited || System.nanoTime() > deadline) {
                String words = output.get();
                try {
                    stop.close();
                } catch (Exception e) {
                    words += " (and stopping it failed: " + e.getMessage() + ")";
                }
                throw new IOException(exited ? name + " exited during start-up on port " + port + ": " + words
                        : name + " did not " + doing + " on port " + port + " within " + within.toSeconds() + " s: " + words);
            }
            Poll.pause(50);
        }
    }

    /** Starts {@code command} with its output passed through to ours (for live progress). */
    public static ManagedProcess startInherited(String name, List<String> command, Path workDir)
            throws IOException {
        return start(name, new ProcessBuilder(command).redirectOutput(ProcessBuilder.Redirect.INHERIT)
                .redirectError(ProcessBuilder.Redirect.INHERIT), workDir, null);
    }

    public String name() {
        return name;
    }

    /** What it logged last, on one line: for error messages. */
    public String lastWords() {
        return logTail(5).strip().replaceAll("\\s*\\n\\s*", " | ");
    }

    public long pid() {
        return process.pid();
    }

    public Path log() {
        return log;
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    /** Waits for the process to end by itself; returns its exit code. */
    public int waitFor(Duration limit) throws InterruptedException {
        if (!process.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new IllegalStateException(name + " did not finish within " + limit.toSeconds() + " s");
        }
        LIVE.remove(this);
        return process.exitValue();
    }

    /**
     * How a process ended and what it cost.
     *
     * @param cpuSeconds its own CPU, sampled from /proc every 200 ms while it ran (so short by at
     *                   most the last 200 ms of its life)
     */
    public record Finished(int exitCode, double wallSeconds, double cpuSeconds) {}

    /** Waits for the process to end by itself, measuring its wall time and CPU on the way. */
    public Finished waitMeasured(Duration limit) throws InterruptedException {
        long started = System.nanoTime();
        java.util.concurrent.atomic.AtomicReference<Double> cpu = new java.util.concurrent.atomic.AtomicReference<>(0.0);
        java.util.concurrent.ScheduledExecutorService sampler = java.util.concurrent.Executors.newSingleThreadScheduledExecutor();
        sampler.scheduleAtFixedRate(() -> ProcCpu.seconds(pid()).ifPresent(cpu::set), 0, 200, TimeUnit.MILLISECONDS);
        try {
            int exit = waitFor(limit);
            return new Finished(exit, (System.nanoTime() - started) / 1e9, cpu.get());
        } finally {
            sampler.shutdownNow();
        }
    }

    /**
     * Sends it {@code SIG<signal>} (e.g. STOP, CONT) by its PID, with the system's {@code kill}: Java
     * itself sends only TERM and KILL.
     */
    public void signal(String signal) throws IOException {
        try {
            Outcome kill = run(List.of("kill", "-" + signal, String.valueOf(pid())), Duration.ofSeconds(10));
            if (kill.exitCode() != 0) {
                throw new IOException("kill -" + signal + " " + pid() + " (" + name + ") failed: " + kill.text().strip());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while sending " + signal + " to " + name, e);
        }
    }

    /**
     * Runs it at the machine's normal priority from now on ({@code renice -n 0}), if this user may:
     * raising a priority takes root (CAP_SYS_NICE), so elsewhere it stays where it was started.
     */
    public void toNormalPriority() {
        try {
            run(List.of("renice", "-n", "0", "-p", String.valueOf(pid())), Duration.ofSeconds(10));
        } catch (IOException e) {
            // No renice, or it hung: it finishes at its low priority, later but whole.
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The last lines of its log, for error messages. */
    public String logTail(int lines) {
        return LogTail.of(log, lines);
    }

    /**
     * Stops it: SIGTERM to the PID, then after a grace period SIGKILL to it and every descendant
     * (nginx workers, for one, would otherwise survive a killed master).
     */
    @Override
    public void close() {
        ProcessHandle handle = process.toHandle();
        List<ProcessHandle> descendants = handle.descendants().toList();
        if (handle.isAlive()) {
            handle.destroy();
            try {
                handle.onExit().get(10, TimeUnit.SECONDS);
            } catch (Exception stillRunning) {
                handle.destroyForcibly();
            }
        }
        for (ProcessHandle child : descendants) {
            if (child.isAlive()) {
                child.destroyForcibly();
            }
        }
        LIVE.remove(this);
    }

    static void stopAll() {
        for (ManagedProcess p : List.copyOf(LIVE)) {
            p.close();
        }
    }
}
