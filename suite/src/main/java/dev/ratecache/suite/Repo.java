package dev.ratecache.suite;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** Where the suite's own files are: the checkout that holds run-tests.sh. */
public final class Repo {
    private Repo() {}

    /**
     * The checkout's root: the {@code ratecache.home} system property when set (run-tests.sh and
     * the build set it), otherwise the nearest folder at or above the working directory that holds
     * run-tests.sh.
     */
    public static Path root() {
        String home = System.getProperty("ratecache.home");
        if (home != null && !home.isBlank()) {
            return Path.of(home).toAbsolutePath().normalize();
        }
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.isRegularFile(dir.resolve("run-tests.sh"))) {
                return dir;
            }
        }
        throw new NotFound();
    }

    /** Run from outside the checkout without ratecache.home: a user's mistake, said in one line. */
    public static final class NotFound extends IllegalStateException {
        NotFound() {
            super("cannot find the suite's checkout (the folder with run-tests.sh): run from inside it"
                    + " or set -Dratecache.home=DIR");
        }
    }

    public static Path nginxTemplates() {
        return root().resolve("nginx");
    }

    public static Path haproxyTemplates() {
        return root().resolve("haproxy");
    }

    public static Path varnishTemplates() {
        return root().resolve("varnish");
    }

    public static Path originJar() {
        return root().resolve("appserver/target/appserver.jar");
    }

    /**
     * How the origin's JVM is given its classes: from the class-data-sharing layout the build
     * leaves in appserver/target/cds/ (see appserver/pom.xml), which starts in less than half the
     * CPU; from {@link #originJar()} when that layout is missing or older than the jar.
     */
    public static List<String> originLaunch() throws IOException {
        Path cds = root().resolve("appserver/target/cds");
        Path jar = cds.resolve("appserver.jar");
        Path archive = cds.resolve("appserver.jsa");
        if (Files.isRegularFile(archive) && Files.isRegularFile(jar) && Files.isRegularFile(originJar())
                && Files.getLastModifiedTime(jar).compareTo(Files.getLastModifiedTime(originJar())) >= 0) {
            return List.of("-XX:SharedArchiveFile=" + archive, "-jar", jar.toString());
        }
        return List.of("-jar", originJar().toString());
    }

    public static Path jmeterHome() {
        return root().resolve("jmeter/target/jmeter");
    }

    /** The JMeter properties every run of the suite's plans gets (JTL columns, client-cache mode, ...). */
    public static Path jmeterProperties() {
        return root().resolve("jmeter/suite.properties");
    }

    public static Path plans() {
        return root().resolve("jmeter/plans");
    }
}
