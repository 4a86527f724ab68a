package dev.ratecache.appserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.ratecache.testkit.LongTest;
import dev.ratecache.testkit.StackTest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The repackaged appserver/target/appserver.jar as a user starts it, and its class-data-sharing
 * layout in target/cds/ as the suite starts it.
 */
@StackTest
class AppServerJarIT {

    private static final Path JAR = Path.of("target", "appserver.jar");
    private static final Path CDS = Path.of("target", "cds");

    @Test
    void jarServesTheApiAndManagementOnTheGivenPorts() {
        assertThat(JAR).exists();
        int port = freePort();
        int managementPort = freePort();
        OriginProcess origin = OriginProcess.start(OriginProcess.fromJar(JAR), Map.of(),
                "--server.port=" + port, "--management.server.port=" + managementPort);
        try {
            OriginHttp management = new OriginHttp(managementPort);
            await().atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofMillis(200))
                    .ignoreExceptions()
                    .until(() -> origin.isAlive() && management.get("/actuator/health").statusCode() == 200);

            HttpResponse<String> hare = new OriginHttp(port).get("/hare?n=1");
            assertThat(hare.statusCode()).isEqualTo(200);
            assertThat(hare.headers().firstValue("ETag")).hasValue("\"hare-v1\"");
            assertThat(management.getJson("/actuator/origin").at("/endpoints/hare/requests").asLong()).isEqualTo(1);
        }
        finally {
            origin.stop();
        }
        // One concise line per start, and nothing on stderr.
        assertThat(origin.stdout().lines().filter(line -> line.contains("origin ready"))).hasSize(1);
        assertThat(origin.stderrLines()).isEmpty();
    }

    @Test
    @LongTest
    void jarServesAnyPathInReplayMode(@TempDir Path directory) throws IOException {
        Path paths = Files.writeString(directory.resolve("paths.csv"),
                "path,requests,delay_ms,body_bytes\n\"/a,b/c\",2,,321\n");
        int port = freePort();
        int managementPort = freePort();
        OriginProcess origin = OriginProcess.start(OriginProcess.fromArchive(CDS), Map.of(),
                "--server.port=" + port, "--management.server.port=" + managementPort,
                "--origin.replay.paths-file=" + paths);
        try {
            OriginHttp management = new OriginHttp(managementPort);
            await().atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofMillis(200))
                    .ignoreExceptions()
                    .until(() -> origin.isAlive() && management.get("/actuator/health").statusCode() == 200);

            HttpResponse<String> replayed = new OriginHttp(port).get("/a,b/c?n=1");
            assertThat(replayed.statusCode()).isEqualTo(200);
            assertThat(replayed.body()).hasSize(321);
            assertThat(management.getJson("/actuator/origin").at("/endpoints/replay/requests").asLong()).isEqualTo(1);
        }
        finally {
            origin.stop();
        }
        assertThat(origin.stdout().lines().filter(line -> line.contains("replay: any other path, 1 listed"))).hasSize(1);
        assertThat(origin.stderrLines()).isEmpty();
    }

    @Test
    void jarRefusesBadConfigurationWithOneLineOnStderr() {
        OriginProcess origin = OriginProcess.start(OriginProcess.fromArchive(CDS), Map.of(),
                "--origin.endpoints.hare.delay=-5ms");

        assertThat(origin.awaitExit()).isNotZero();
        assertThat(origin.stderrLines()).containsExactly("origin: invalid configuration: "
                + "origin.endpoints.hare.delay=-5ms: must not be negative (accepted: a duration such as 100ms, 2s)");
    }

    @Test
    @LongTest
    void otherStartFailuresAreAlsoOneLine() throws IOException {
        try (ServerSocket taken = new ServerSocket(0)) {
            OriginProcess origin = OriginProcess.start(OriginProcess.fromArchive(CDS), Map.of(),
                    "--server.port=" + taken.getLocalPort());
            assertThat(origin.awaitExit()).isNotZero();
            assertThat(origin.stderrLines()).singleElement().asString()
                    .startsWith("origin: failed to start: ")
                    .contains(String.valueOf(taken.getLocalPort()));
        }
    }

    @Test
    void archiveFromTheBuildMatchesItsJars() {
        // -Xshare:on refuses to start unless the archive maps; the context refreshes, then exits.
        OriginProcess origin = OriginProcess.start(OriginProcess.fromArchive(CDS, "-Xshare:on",
                "-Dspring.context.exit=onRefresh"), Map.of());

        assertThat(origin.awaitExit()).as("stderr: %s", origin.stderrLines()).isZero();
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }
}
