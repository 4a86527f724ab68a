package dev.ratecache.proc;

import java.nio.file.Files;
import java.nio.file.Path;

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
        for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, name))) {
                return Path.of(dir, name).toString();
            }
        }
        return debian;
    }

    public static boolean runnable(String binary) {
        return Files.isExecutable(Path.of(binary));
    }
}
