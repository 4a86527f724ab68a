package dev.ratecache.proc;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/** Where a tool from Debian's packages is: an environment variable's path when set, else PATH, else Debian's place. */
public final class Executables {
    private Executables() {}

    /**
     * @param name        the command, e.g. {@code wrk}
     * @param environment a variable that names another binary (for a build of one's own), e.g. {@code WRK_BIN}
     * @param debian      where Debian's package puts it, used when PATH has none (cron, sudo's secure_path)
     */
    public static String find(String name, String environment, String debian) {
        String configured = System.getenv(environment);
        if (configured != null && !configured.isBlank()) {
            return configured;
        }
        return onPath(List.of(name)).map(Path::toString).orElse(debian);
    }

    /** The first of {@code names} that PATH has, trying each name through all of PATH before the next. */
    public static Optional<Path> onPath(List<String> names) {
        String path = System.getenv().getOrDefault("PATH", "");
        for (String name : names) {
            for (String dir : path.split(File.pathSeparator)) {
                if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, name))) {
                    return Optional.of(Path.of(dir, name));
                }
            }
        }
        return Optional.empty();
    }

    public static boolean runnable(String binary) {
        return Files.isExecutable(Path.of(binary));
    }
}
