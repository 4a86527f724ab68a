package dev.ratecache.suite.explain;

import dev.ratecache.accesslog.Printable;
import dev.ratecache.proc.Executables;
import dev.ratecache.proc.ManagedProcess;
import dev.ratecache.suite.nginx.NginxServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * {@code nginx -t} on the user's config as it stands: whether nginx takes it, and if not nginx's own
 * reason. Relative paths in the config go into a prefix folder of the run's own ({@code -p}); the
 * error log too ({@code -e}). nginx -t opens the files the config names and makes its cache folders,
 * but binds no port and starts no worker.
 */
public final class NginxCheck {
    private NginxCheck() {}

    /** Whether an nginx binary is there to check with. */
    public static boolean available() {
        return Executables.runnable(NginxServer.binary());
    }

    /**
     * The folder nginx's build loads relative module paths from: its configure arguments'
     * --modules-path, or --prefix's modules/ (nginx -V lists them, one word each).
     */
    static Optional<Path> modulesFolder() throws IOException, InterruptedException {
        ManagedProcess.Outcome v = ManagedProcess.run(List.of(NginxServer.binary(), "-V"), Duration.ofSeconds(30));
        String prefix = null;
        for (String word : (v.stdout() + " " + v.stderr()).split("\\s+")) {
            if (word.startsWith("--modules-path=")) {
                return existing(Path.of(word.substring("--modules-path=".length())));
            }
            if (word.startsWith("--prefix=")) {
                prefix = word.substring("--prefix=".length());
            }
        }
        return prefix == null ? Optional.empty() : existing(Path.of(prefix, "modules"));
    }

    private static Optional<Path> existing(Path dir) {
        return Files.isDirectory(dir) ? Optional.of(dir) : Optional.empty();
    }

    /**
     * Empty when nginx takes {@code conf}; otherwise nginx's first [emerg] (or other) line, as it
     * said it, escaped to one printable line.
     */
    public static Optional<String> refusal(Path conf, Path prefix) throws IOException, InterruptedException {
        // nginx makes the leaf folders of its temp and cache paths, not their parents: logs/ and temp/
        // are where configs written for a prefix (nginx -p, as the suite's own) keep theirs.
        Files.createDirectories(prefix.resolve("logs"));
        Files.createDirectories(prefix.resolve("temp"));
        // load_module modules/x.so (Debian's modules-enabled/) is relative to the prefix: the prefix of
        // the check's own has the build's modules folder under that name.
        Path modules = prefix.resolve("modules");
        Optional<Path> built = modulesFolder();
        if (built.isPresent() && !Files.exists(modules, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            Files.createSymbolicLink(modules, built.get());
        }
        Path main = conf.toAbsolutePath().normalize();
        ManagedProcess.Outcome out = ManagedProcess.run(List.of(NginxServer.binary(), "-t", "-q",
                "-p", prefix.toAbsolutePath() + "/", "-c", main.toString(),
                "-e", prefix.toAbsolutePath().resolve("logs/error.log").toString()),
                prefix, Duration.ofSeconds(60));
        if (out.exitCode() == 0) {
            return Optional.empty();
        }
        String said = out.stderr() + "\n" + out.stdout();
        return Optional.of(said.lines().filter(l -> l.contains("[emerg]")).findFirst()
                .or(() -> said.lines().filter(l -> l.contains("] ")).findFirst())
                .or(() -> said.lines().filter(l -> !l.isBlank()).findFirst())
                .map(l -> Printable.escape(l.strip(), 400))
                .orElse("nginx -t exited " + out.exitCode() + " saying nothing"));
    }
}
