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
        builder.directory(workDir.toFile()).redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        ManagedProcess managed = new ManagedProcess(name, builder.start(), log);
        LIVE.add(managed);
        return managed;
    }

    /** Starts {@code command} with its output passed through to ours (for live progress). */
    public static ManagedProcess startInherited(String name, List<String> command, Path workDir)
            throws IOException {
        ProcessBuilder builder = new ProcessBuilder(command)
                .directory(workDir.toFile())
                .redirectOutput(ProcessBuilder.Redirect.INHERIT)
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        ManagedProcess managed = new ManagedProcess(name, builder.start(), null);
        LIVE.add(managed);
        return managed;
    }

    public String name() {
        return name;
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
            Process kill = new ProcessBuilder("kill", "-" + signal, String.valueOf(pid())).redirectErrorStream(true).start();
            String said = new String(kill.getInputStream().readAllBytes()).strip();
            if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
                throw new IOException("kill -" + signal + " " + pid() + " (" + name + ") failed: " + said);
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
            Process renice = new ProcessBuilder("renice", "-n", "0", "-p", String.valueOf(pid()))
                    .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            if (!renice.waitFor(10, TimeUnit.SECONDS)) {
                renice.destroyForcibly();
            }
        } catch (IOException e) {
            // No renice: it finishes at its low priority, later but whole.
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
