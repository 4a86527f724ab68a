package dev.ratecache.acceptance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.proc.ManagedProcess;
import dev.ratecache.suite.Repo;
import dev.ratecache.suite.origin.OriginServer;
import dev.ratecache.suite.stack.SharedOrigin;
import dev.ratecache.suite.stack.Stack;
import dev.ratecache.suite.stack.Stacks;
import dev.ratecache.suite.switches.StackSwitches;
import dev.ratecache.testkit.StackTest;
import dev.ratecache.testkit.TestDirs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.jar.JarFile;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The client library as a user's project takes it: ./run-tests.sh install-client installs it into a
 * repository of this test's own (Maven's chained local repository: what it needs is read from the
 * user's ~/.m2, and nothing is written there), and each project of examples/client-* builds against
 * it, offline, and runs against a real stack (origin, back end, front end), as its README says.
 */
@StackTest
@ExtendWith(SharedOrigin.class)
class ClientExamplesTest {
    private static final String VERSION = "0.1.0";
    private static final Path USER_REPO = Path.of(System.getProperty("user.home"), ".m2", "repository");
    private static final Duration MAVEN = Duration.ofMinutes(5);

    private static Path repo;
    private static Path installed;
    private static Map<String, String> userRepoBefore;
    private static Stack stack;

    @BeforeAll
    static void installThenStart(OriginServer origin) throws Exception {
        Path dir = TestDirs.fresh(ClientExamplesTest.class, "install");
        repo = dir.resolve("m2");
        userRepoBefore = listing(USER_REPO.resolve("dev/ratecache/client"));

        // Online: the suite's own build never installs, so maven-install-plugin may not be in ~/.m2
        // yet (it then lands in this test's repository, as everything the install writes).
        ManagedProcess.Outcome install = ManagedProcess.run(List.of("bash", Repo.root().resolve("run-tests.sh").toString(),
                "install-client", "-Dmaven.repo.local=" + repo, "-Dmaven.repo.local.tail=" + USER_REPO),
                Repo.root(), MAVEN);

        assertThat(install.exitCode()).as("install-client\n%s\n%s", install.stdout(), install.stderr()).isZero();
        installed = repo.resolve("dev/ratecache/client/" + VERSION);
        stack = Stacks.around(origin, ClientExamplesTest.class, new StackSwitches());
    }

    @AfterAll
    static void stop() {
        Stacks.closeAll(stack);
    }

    @Test
    void theInstalledLibraryNeedsOnlyItsCoordinates() throws Exception {
        assertThat(installed.resolve("client-" + VERSION + ".jar")).isRegularFile();
        assertThat(installed.resolve("client-" + VERSION + "-sources.jar")).isRegularFile();
        assertThat(installed.resolve("client-" + VERSION + "-javadoc.jar")).isRegularFile();
        String pom = Files.readString(installed.resolve("client-" + VERSION + ".pom"));
        assertThat(pom).as("the POM a user's build reads")
                .doesNotContain("<parent>", "SNAPSHOT", "<scope>test</scope>", "${", "<profiles>")
                .as("the load driver's dependencies stay out").doesNotContain("<artifactId>jtl</artifactId>", "<artifactId>picocli</artifactId>")
                .contains("<artifactId>httpclient5-cache</artifactId>", "<artifactId>bucket4j_jdk17-core</artifactId>");
        // Every dependency names its version: nothing is left to a parent's management.
        assertThat(pom.split("<dependency>", -1).length - 1).isEqualTo(pom.split("</version>", -1).length - 2);
        try (JarFile jar = new JarFile(installed.resolve("client-" + VERSION + ".jar").toFile())) {
            assertThat(jar.getManifest().getMainAttributes().getValue("Automatic-Module-Name")).isEqualTo("dev.ratecache.client");
            assertThat(jar.getEntry("dev/ratecache/client/RateCacheClient.class")).isNotNull();
            assertThat(jar.getEntry("dev/ratecache/client/spring/RateCacheRequestFactory.class")).isNotNull();
            assertThat(jar.stream().map(e -> e.getName())).as("the load driver stays out of the library")
                    .noneMatch(name -> name.startsWith("dev/ratecache/client/driver/"));
        }
        assertThat(listing(USER_REPO.resolve("dev/ratecache/client"))).as("the user's ~/.m2, untouched")
                .isEqualTo(userRepoBefore);
    }

    @Test
    void theMavenExampleBuildsAgainstTheInstalledLibraryAndAnswersTheSecondCallFromItsCache() throws Exception {
        String url = stack.frontUri() + Stacks.fresh("hare");

        ManagedProcess.Outcome run = maven("client-maven", "compile", "exec:java", "-Dexec.args=" + url);

        assertThat(run.exitCode()).as("%s\n%s", run.stdout(), run.stderr()).isZero();
        assertThat(run.stdout().lines().toList()).containsSubsequence(
                "GET " + url + " -> 200 NETWORK",
                "GET " + url + " -> 200 CACHE");
        assertThat(run.stdout()).contains("stats: requests=2 network=1 hits=1 ");
        assertThat(Stacks.reached(stack, "hare")).isEqualTo(1);
        assertThat(listing(USER_REPO.resolve("dev/ratecache/client"))).isEqualTo(userRepoBefore);
    }

    @Test
    void theSpringExamplePutsRestClientAndRestTemplateThroughTheLibrary() throws Exception {
        String url = stack.frontUri() + Stacks.fresh("hare");

        ManagedProcess.Outcome run = maven("client-spring", "spring-boot:run",
                "-Dspring-boot.run.arguments=--api.url=" + url);

        assertThat(run.exitCode()).as("%s\n%s", run.stdout(), run.stderr()).isZero();
        assertThat(run.stdout().lines().toList()).containsSubsequence(
                "RestClient GET " + url + " -> 200 NETWORK",
                "RestClient GET " + url + " -> 200 CACHE",
                "RestTemplate GET " + url + " -> 200 CACHE");
        assertThat(run.stdout()).contains("stats: requests=3 network=1 hits=2 ");
        assertThat(Stacks.reached(stack, "hare")).isEqualTo(1);
        assertThat(listing(USER_REPO.resolve("dev/ratecache/client"))).isEqualTo(userRepoBefore);
    }

    /**
     * Builds a copy of examples/{@code name} (so that no target/ is left in the checkout) with the
     * checkout's Maven wrapper, offline, reading the installed library from this test's repository
     * and everything else from the user's.
     */
    private static ManagedProcess.Outcome maven(String name, String... goals) throws Exception {
        Path project = TestDirs.fresh(ClientExamplesTest.class, name).resolve(name);
        copy(Repo.root().resolve("examples").resolve(name), project);
        List<String> command = new ArrayList<>(List.of(Repo.root().resolve("mvnw").toString(), "-B", "-q", "-o",
                "-f", project.resolve("pom.xml").toString(),
                "-Dmaven.repo.local=" + repo, "-Dmaven.repo.local.tail=" + USER_REPO));
        command.addAll(List.of(goals));
        return ManagedProcess.run(command, project, MAVEN);
    }

    private static void copy(Path from, Path to) throws IOException {
        try (Stream<Path> files = Files.walk(from)) {
            for (Path p : files.filter(p -> !p.toString().contains("/target")).toList()) {
                Path dest = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(dest);
                } else {
                    Files.copy(p, dest);
                }
            }
        }
    }

    /** Each file under {@code dir} with its size and time: what a write would change. */
    private static Map<String, String> listing(Path dir) throws IOException {
        Map<String, String> files = new TreeMap<>();
        if (!Files.isDirectory(dir)) {
            return files;
        }
        try (Stream<Path> all = Files.walk(dir)) {
            for (Path p : all.filter(Files::isRegularFile).toList()) {
                files.put(dir.relativize(p).toString(), Files.size(p) + " " + Files.getLastModifiedTime(p));
            }
        }
        return files;
    }
}
