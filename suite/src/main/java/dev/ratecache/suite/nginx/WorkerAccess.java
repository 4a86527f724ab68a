package dev.ratecache.suite.nginx;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Optional;

/**
 * Whether nginx's worker processes can reach a run folder. Started by root, nginx runs its workers
 * as {@value #WORKER_USER} (its built-in default: the suite's configs set no {@code user}, so a
 * copied config keeps its own host's). The workers write the edge cache and nginx's temp files
 * under the run folder, so every folder above it must let any user in: below /root (mode 700) or
 * in a JUnit temp dir (700) every cacheable answer fails with 500, "Permission denied" in the
 * error log, and nothing else says so.
 * https://nginx.org/en/docs/ngx_core_module.html#user
 */
public final class WorkerAccess {
    /** nginx's default worker user (Debian's package is built without --user). */
    public static final String WORKER_USER = "nobody";

    private WorkerAccess() {}

    /**
     * One line when the suite runs as root and a folder at or above {@code dir} that exists keeps
     * other users out; empty otherwise. The folders the suite makes below it get the umask's modes.
     *
     * @param flag the option that named the folder, for the line
     */
    public static Optional<String> problem(Path dir, String flag) {
        return problem(dir, flag, "nginx's workers run as", "to write the edge cache");
    }

    /** As {@link #problem(Path, String)}, for the suite's PostgreSQL, which runs as nobody when the suite runs as root. */
    public static Optional<String> postgresProblem(Path dir, String flag) {
        return problem(dir, flag, "PostgreSQL runs as", "to reach its data folder");
    }

    private static Optional<String> problem(Path dir, String flag, String who, String why) {
        if (!runningAsRoot()) {
            return Optional.empty();
        }
        Path given = dir.toAbsolutePath().normalize();
        for (Path p = given; p != null; p = p.getParent()) {
            if (!Files.isDirectory(p)) {
                continue;
            }
            try {
                var perms = Files.getPosixFilePermissions(p);
                if (!perms.contains(PosixFilePermission.OTHERS_EXECUTE)) {
                    return Optional.of(flag + " " + given + ": the suite runs as root, so " + who + " "
                            + WORKER_USER + ", who cannot enter " + p + " (" + PosixFilePermissions.toString(perms)
                            + ") " + why + ": give " + flag + " a folder every user can enter, e.g. "
                            + flag + " /tmp/ratecache-results, or run as another user");
                }
            } catch (IOException | UnsupportedOperationException e) {
                return Optional.empty();
            }
        }
        return Optional.empty();
    }

    static boolean runningAsRoot() {
        try {
            // /proc/self belongs to this process's effective user.
            return Integer.valueOf(0).equals(Files.getAttribute(Path.of("/proc/self"), "unix:uid"));
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
            return false;
        }
    }
}
