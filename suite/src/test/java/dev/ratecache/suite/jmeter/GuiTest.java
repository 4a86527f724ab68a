package dev.ratecache.suite.jmeter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.ratecache.testkit.LongTest;
import dev.ratecache.testkit.StackTest;
import dev.ratecache.testkit.TestDirs;
import dev.ratecache.suite.cli.GuiCommand;
import dev.ratecache.proc.Ports;
import dev.ratecache.proc.ManagedProcess;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * ./run-tests.sh gui opens JMeter's GUI on the plan: in a virtual display (Xvfb) of the test's
 * own, the window appears with the plan's name, and a screenshot is kept in target/gui/.
 */
@StackTest
@LongTest
class GuiTest {

    @Test
    void guiCommandOpensTheStressPlanInJMetersWindow() throws Exception {
        Path dir = TestDirs.fresh(getClass(), "gui");
        Path screenshot = Path.of("target", "gui", "stress.png").toAbsolutePath();
        Files.createDirectories(screenshot.getParent());
        Files.deleteIfExists(screenshot);
        // Nothing listens there: the command says so and still opens the plan.
        int frontPort = Ports.free();
        GuiCommand gui = GuiCommand.parse("stress", "--scenario", "stress/client-cache",
                "--front-port", String.valueOf(frontPort), "-Jusers=3");
        GuiCommand.Launch launch = gui.prepare();
        assertThat(launch.properties()).containsEntry("client_cache", "true").containsEntry("users", "3")
                .containsEntry("host", "127.0.0.1").containsEntry("port", String.valueOf(frontPort));
        assertThat(launch.notes()).anyMatch(n -> n.startsWith("no stack is running"));
        assertThat(gui.command(launch, dir)).doesNotContain("-n").contains("-Jclient_cache=true");

        try (Xvfb x = Xvfb.start(dir);
                ManagedProcess jmeter = gui.launch(Map.of("DISPLAY", x.display()), dir, false)) {
            await("the JMeter window on stress.jmx, loaded (splash screen gone); see " + jmeter.log())
                    .atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofMillis(500))
                    .until(() -> {
                        if (!jmeter.isAlive()) {
                            throw new AssertionError("JMeter exited:\n" + jmeter.logTail(20));
                        }
                        return planWindowShown(x.topWindows());
                    });
            // Painting follows the window: wait until the screen shows more than a few colours.
            await("a screenshot with the window painted").atMost(Duration.ofSeconds(30))
                    .pollInterval(Duration.ofMillis(500))
                    .until(() -> colours(x.screenshot(screenshot, dir)) > 200);

            assertThat(screenshot).isRegularFile();
            assertThat(Files.size(screenshot)).isGreaterThan(10_000);
            assertThat(jmeter.isAlive()).isTrue();
        }
    }

    /** The main window carries the plan's file name; the splash screen (an unnamed window) is gone. */
    static boolean planWindowShown(List<String> topWindows) {
        boolean planWindow = topWindows.stream().anyMatch(w -> w.contains("\"stress.jmx (") && w.contains("Apache JMeter"));
        boolean splash = topWindows.stream().anyMatch(w -> w.contains("\" \": (\"org-apache-jmeter-NewDriver\"")
                && !w.contains(" 1x1+"));
        return planWindow && !splash;
    }

    /** Distinct colours in a PNG (a blank screen has one). */
    static int colours(Path png) throws IOException, InterruptedException {
        String out = Tool.run(List.of("convert-im6.q16", png.toString(), "-format", "%k", "info:"), png.getParent());
        return Integer.parseInt(out.trim());
    }

    /** A virtual X display of this test's own, on the first free display number from :90. */
    record Xvfb(int number, ManagedProcess process, Path dir) implements AutoCloseable {
        static Xvfb start(Path dir) throws IOException, InterruptedException {
            for (int n = 90; n < 200; n++) {
                if (Files.exists(Path.of("/tmp/.X" + n + "-lock")) || Files.exists(Path.of("/tmp/.X11-unix/X" + n))) {
                    continue;
                }
                // -noreset: by default Xvfb resets when its last client leaves, so JMeter, connecting
                // right after the readiness probe hung up, could find it mid-reset and refusing.
                ManagedProcess p = ManagedProcess.start("xvfb", List.of("Xvfb", ":" + n, "-screen", "0", "1280x1024x24",
                        "-nolisten", "tcp", "-noreset"), dir, dir.resolve("xvfb-" + n + ".out"));
                Xvfb x = new Xvfb(n, p, dir);
                try {
                    await("Xvfb :" + n + " accepting clients").atMost(Duration.ofSeconds(20))
                            .pollInterval(Duration.ofMillis(200))
                            .until(() -> !p.isAlive() || x.answers());
                } catch (RuntimeException e) {
                    p.close();
                    throw e;
                }
                if (p.isAlive()) {
                    return x;
                }
                p.close(); // another display took the number meanwhile: try the next one
            }
            throw new IllegalStateException("no free X display number from :90 to :199");
        }

        String display() {
            return ":" + number;
        }

        boolean answers() {
            try {
                Tool.run(List.of("xwininfo", "-root", "-display", display()), dir);
                return true;
            } catch (IOException | InterruptedException e) {
                return false;
            }
        }

        /** One line per top-level window: id, "name", (class), geometry. */
        List<String> topWindows() throws IOException, InterruptedException {
            return Tool.run(List.of("xwininfo", "-root", "-children", "-display", display()), dir).lines()
                    .filter(l -> l.trim().startsWith("0x")).toList();
        }

        /** The whole screen as PNG. */
        Path screenshot(Path png, Path workDir) throws IOException, InterruptedException {
            Path xwd = workDir.resolve("screen.xwd");
            Tool.run(List.of("xwd", "-root", "-display", display(), "-silent", "-out", xwd.toString()), workDir);
            Tool.run(List.of("convert-im6.q16", "xwd:" + xwd, "png:" + png), workDir);
            return png;
        }

        @Override
        public void close() {
            process.close();
        }
    }

    /** A short-lived command line tool: its output, or an IOException when it fails or takes over 30 s. */
    static final class Tool {
        static String run(List<String> command, Path dir) throws IOException, InterruptedException {
            return ManagedProcess.run(command, dir, Duration.ofSeconds(30)).stdoutIfSucceeded();
        }
    }
}
