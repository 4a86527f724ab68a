package dev.ratecache.suite;

import dev.ratecache.proc.Executables;
import dev.ratecache.proc.ManagedProcess;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Headless Chromium for tests of the pages the suite writes, as a person's browser would show
 * them: scripts run, canvases draw. The network is blocked (an unreachable proxy, and every host
 * name unresolvable), so a page that needs anything from outside its folder shows it. Each run has
 * its own profile folder and is stopped by its PID, with its helper processes, when it overruns.
 * Debian's package is {@code chromium}; ./run-tests.sh test installs it.
 */
public final class HeadlessChromium {
    private static final List<String> NAMES = List.of("chromium", "chromium-browser", "google-chrome-stable", "google-chrome");

    private final Path binary;
    private final Path workDir;
    private final Duration timeout;

    private HeadlessChromium(Path binary, Path workDir, Duration timeout) {
        this.binary = binary;
        this.workDir = workDir;
        this.timeout = timeout;
    }

    /** The first Chromium on the PATH. */
    public static Optional<Path> binary() {
        return Executables.onPath(NAMES);
    }

    /** Chromium with its profiles and logs in {@code workDir}; fails with the install line when there is none. */
    public static HeadlessChromium in(Path workDir, Duration timeout) throws IOException {
        Path found = binary().orElseThrow(() -> new IllegalStateException("no Chromium on the PATH (" + NAMES + "):"
                + " ./run-tests.sh test installs it, or: sudo apt-get install -y chromium"));
        return new HeadlessChromium(found, Files.createDirectories(workDir), timeout);
    }

    /** The page's DOM once its scripts ran, with up to {@code budget} of virtual time for them. */
    public String dumpDom(Path page, Duration budget) throws IOException, InterruptedException {
        return run("dump", List.of("--virtual-time-budget=" + budget.toMillis(), "--dump-dom", page.toUri().toString()));
    }

    /** A screenshot of the page in a window of that size, once its scripts ran. */
    public Path screenshot(Path page, Path png, int width, int height, Duration budget)
            throws IOException, InterruptedException {
        Files.createDirectories(png.toAbsolutePath().getParent());
        Files.deleteIfExists(png);
        run("screenshot", List.of("--virtual-time-budget=" + budget.toMillis(), "--hide-scrollbars",
                "--window-size=" + width + "," + height, "--screenshot=" + png.toAbsolutePath(), page.toUri().toString()));
        if (!Files.isRegularFile(png)) {
            throw new IOException("Chromium wrote no screenshot to " + png + "; see " + workDir);
        }
        return png;
    }

    /** Runs Chromium once; its standard output, or an IOException with its log when it fails or overruns. */
    private String run(String name, List<String> args) throws IOException, InterruptedException {
        Path profile = Files.createTempDirectory(workDir, name + "-profile");
        Path out = workDir.resolve(name + ".out");
        Path log = workDir.resolve(name + ".log");
        List<String> command = new ArrayList<>(List.of(binary.toString(), "--headless",
                "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run", "--no-default-browser-check",
                "--disable-extensions", "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--force-device-scale-factor=1", "--user-data-dir=" + profile,
                // No network: a page that fetches or links anything outside its folder fails to show it.
                "--proxy-server=127.0.0.1:9", "--host-resolver-rules=MAP * ~NOTFOUND"));
        if (isRoot()) {
            // Chromium refuses to run as root with its sandbox on.
            command.add("--no-sandbox");
        }
        command.addAll(args);
        // A ManagedProcess is stopped by its PID with every helper process it started, whatever happens.
        try (ManagedProcess chromium = ManagedProcess.start("chromium " + name, command, workDir, out, log)) {
            int exit;
            try {
                exit = chromium.waitFor(timeout);
            } catch (IllegalStateException overran) {
                throw new IOException("Chromium did not finish within " + timeout.toSeconds() + " s: " + String.join(" ", command));
            }
            if (exit != 0) {
                throw new IOException("Chromium exited " + exit + "; its log, " + log + ", ends:\n" + chromium.logTail(20));
            }
            return Files.readString(out, StandardCharsets.UTF_8);
        } finally {
            deleteTree(profile);
        }
    }

    private static boolean isRoot() {
        return "root".equals(System.getProperty("user.name"));
    }

    private static void deleteTree(Path dir) throws IOException {
        try (Stream<Path> all = Files.walk(dir)) {
            all.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        }
    }
}
