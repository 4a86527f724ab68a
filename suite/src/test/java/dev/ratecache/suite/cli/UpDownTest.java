package dev.ratecache.suite.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.ratecache.suite.Http;
import dev.ratecache.suite.Repo;
import dev.ratecache.testkit.LongTest;
import dev.ratecache.testkit.StackTest;
import dev.ratecache.testkit.TestDirs;
import dev.ratecache.proc.ManagedProcess;
import dev.ratecache.proc.Ports;
import dev.ratecache.suite.stack.StackPorts;
import dev.ratecache.suite.up.UpState;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * ./run-tests.sh up as a real process of its own (Ctrl-C is a signal to a process): the URLs it
 * prints answer, the status line comes, and after down, after SIGINT and after a failed start
 * nothing it started is left running and no state file is left behind.
 */
@StackTest
class UpDownTest {
    private static final Duration START = Duration.ofMinutes(3);
    private final List<ManagedProcess> started = new ArrayList<>();

    /** An up process, its output (stdout and stderr together) in a file, its state in {@code results}. */
    record Up(ManagedProcess process, Path output, Path results, StackPorts ports) {
        String text() {
            try {
                return Files.exists(output) ? Files.readString(output) : "";
            } catch (IOException e) {
                return "";
            }
        }

        UpState state() {
            return UpState.read(UpState.pointer(results)).orElseThrow();
        }
    }

    private Up up(Path results, String name, Map<String, String> env, String... extra) throws IOException {
        return up(results, name, env, StackPorts.free(), extra);
    }

    private Up up(Path results, String name, Map<String, String> env, StackPorts p, String... extra) throws IOException {
        // As from a terminal: a process started in the background of a non-interactive shell (CI)
        // inherits SIGINT ignored, and a JVM that starts with it ignored never sees Ctrl-C; coreutils'
        // env gives the up the default handling back, sets env's variables, and execs java in its
        // place, so the PID held is the up's own.
        List<String> command = new ArrayList<>(List.of("env", "--default-signal=INT"));
        env.forEach((k, v) -> command.add(k + "=" + v));
        command.addAll(List.of(ManagedProcess.javaBinary(),
                "-Dratecache.home=" + Repo.root(), "-cp", System.getProperty("java.class.path"),
                RunTestsCommand.class.getName(), "up", "--results", results.toString(), "--every", "1"));
        command.addAll(p.flags());
        command.addAll(List.of(extra));
        Path output = results.resolve(name + ".out");
        ManagedProcess process = ManagedProcess.start("up " + name, command, results, output);
        started.add(process);
        return new Up(process, output, results, p);
    }

    /** Waits until up has started every tier and written its state with all three children. */
    private static UpState awaitRunning(Up up) {
        await().atMost(START).pollInterval(Duration.ofMillis(200)).until(() -> {
            assertThat(up.process().isAlive()).as(up.text()).isTrue();
            // The banner's last line, not its first: up prints it a line at a time, and a busy machine
            // let a check land between "running" and the URLs below it.
            return up.text().contains("run-tests.sh up: running") && up.text().contains("  stop         Ctrl-C here")
                    && UpState.read(UpState.pointer(up.results())).map(s -> s.children().size() == 3).orElse(false);
        });
        return up.state();
    }

    private static void assertAllGone(Up up, UpState state) {
        await().atMost(Duration.ofSeconds(30)).until(() -> !up.process().isAlive());
        for (UpState.Child child : state.children()) {
            await(child.name()).atMost(Duration.ofSeconds(15))
                    .until(() -> ProcessHandle.of(child.pid()).map(h -> !h.isAlive()).orElse(true));
        }
        state.ports().forEach((name, port) -> assertThat(Ports.accepting(port)).as(name + " port " + port).isFalse());
        assertThat(UpState.pointer(up.results())).doesNotExist();
        assertThat(Path.of(state.runDir()).resolve(UpState.FILE)).doesNotExist();
    }

    private static URI local(int port) {
        return URI.create("http://" + Ports.LOOPBACK + ":" + port);
    }

    private static int run(StringWriter out, StringWriter err, String... args) {
        CommandLine cli = RunTestsCommand.commandLine();
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        return cli.execute(args);
    }

    @AfterEach
    void stopWhatIsLeft() {
        // Only if a test failed midway: the up processes this test started, and theirs, stopped by PID.
        started.forEach(ManagedProcess::close);
    }

    @Test
    void answersThroughBothTiersPrintsTheStatusRefusesASecondUpAndStopsOnDown() throws Exception {
        Path results = TestDirs.fresh(UpDownTest.class, "down");
        Up up = up(results, "up", Map.of(), "--scenario", "stress/server-cache");
        UpState state = awaitRunning(up);

        assertThat(state.pid()).isEqualTo(up.process().pid());
        assertThat(up.text()).contains(state.url("front").orElseThrow(), state.url("back").orElseThrow(),
                state.url("origin").orElseThrow(), state.url("management").orElseThrow(),
                state.url("front-status").orElseThrow(), state.url("back-status").orElseThrow(),
                state.runDir(), "./run-tests.sh down --results " + results);
        assertThat(Path.of(state.runDir()).resolve("nginx/front/conf")).isDirectory();
        HttpResponse<String> hare = Http.get(URI.create(state.url("front").orElseThrow()), "/hare");
        assertThat(hare.statusCode()).isEqualTo(200);
        // It went through the back end to the origin: the back end logged it, the origin counted it.
        await().atMost(Duration.ofSeconds(10)).until(() -> Files.exists(Path.of(state.runDir(), "nginx/back/logs/access.log"))
                && Files.readString(Path.of(state.runDir(), "nginx/back/logs/access.log")).contains("/hare"));
        assertThat(state.url("management")).contains(local(state.ports().get("management")) + "/actuator/origin");
        assertThat(Http.get(local(state.ports().get("management")), "/actuator/origin").body()).contains("\"hare\"");
        assertThat(state.url("front-status")).contains(local(state.ports().get("front-status")) + "/nginx_status");
        assertThat(Http.get(local(state.ports().get("front-status")), "/nginx_status").body()).contains("Active connections");
        for (int i = 0; i < 5; i++) {
            assertThat(Http.get(URI.create(state.url("front").orElseThrow()), "/hare").statusCode()).isEqualTo(200);
        }
        // The status lines show the front end's traffic and the edge cache answering the repeats. The access
        // log is written at least once a second, so its HITs may come a line after the requests' count.
        String number = "[0-9]+\\.[0-9]";
        String line = "\\d\\d:\\d\\d:\\d\\d  front (%s)  back %s  origin %s req/s  rejected %s/s  HIT (%s|-) %%  in-flight \\d+";
        await().atMost(Duration.ofSeconds(15)).until(() -> up.text().lines()
                .anyMatch(l -> l.matches(line.formatted("[1-9][0-9]*\\.[0-9]|0\\.[1-9]", number, number, number, number))));
        await().atMost(Duration.ofSeconds(15)).until(() -> up.text().lines()
                .anyMatch(l -> l.matches(line.formatted(number, number, number, number, "[1-9][0-9]*\\.[0-9]"))));

        Up second = up(results, "second", Map.of());
        assertThat(second.process().waitFor(Duration.ofSeconds(60))).isEqualTo(1);
        assertThat(second.text().strip().lines()).hasSize(1).first().asString()
                .startsWith("run-tests.sh up: an up is already running (PID " + state.pid() + ",");
        assertThat(up.process().isAlive()).isTrue();

        // peak points at the running stack: its front as configured, against nginx's ceiling.
        StringWriter peakOut = new StringWriter();
        StringWriter peakErr = new StringWriter();
        assertThat(run(peakOut, peakErr, "peak", "--results", results.toString(), "--url", "/hare", "--duration", "1",
                "--connections", "10", "--rounds", "1")).as(peakErr.toString()).isZero();
        assertThat(peakOut.toString()).contains("stack:    the running up (PID " + state.pid(),
                "round 1: the running front  " + state.url("front").orElseThrow(), "median ratio");
        assertThat(up.process().isAlive()).as("peak leaves the running stack running").isTrue();

        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        assertThat(run(out, err, "down", "--results", results.toString())).as(err.toString()).isZero();
        assertThat(out.toString().strip().lines()).hasSize(1).first().asString()
                .startsWith("run-tests.sh down: stopped the up (PID " + state.pid());
        assertAllGone(up, state);
        assertThat(up.text()).contains("run-tests.sh up: stopped");
        assertThat(up.process().waitFor(Duration.ofSeconds(10))).as("a stop asked for by down is a clean exit").isZero();

        StringWriter again = new StringWriter();
        assertThat(run(again, err, "down", "--results", results.toString())).isZero();
        assertThat(again.toString()).startsWith("run-tests.sh down: no up is running");
    }

    @Test
    @LongTest
    void haproxysTiersAnswerShowTheirFiguresAndStopOnDown() throws Exception {
        upThroughAnotherProduct("haproxy", "HAProxy", "haproxy/front.cfg");
    }

    @Test
    @LongTest
    void varnishsTiersAnswerShowTheirFiguresAndStopOnDownWithTheirLogSaved() throws Exception {
        Path runDir = upThroughAnotherProduct("varnish", "Varnish", "varnish/front.vcl");

        // Saved from varnishd's memory as down stopped the up, before its tiers went.
        assertThat(runDir.resolve("varnish/front-access.log")).content().contains("\"uri\":\"/tortoise\"");
    }

    /**
     * Runs up with {@code product}'s tiers and a per-client limit of one request a second, sends a
     * MISS, a HIT and requests past the limit, each from an address of its own, sees them in the
     * status lines, and stops it with down. Returns the run folder.
     */
    private Path upThroughAnotherProduct(String product, String displayName, String config) throws Exception {
        Path results = TestDirs.fresh(UpDownTest.class, product);
        Up up = up(results, "up", Map.of(), "--edge", product, "--front-mode", "nodelay", "--back-mode", "nodelay",
                "--front-rate", "1", "--front-burst", "0");
        UpState state = awaitRunning(up);
        Path runDir = Path.of(state.runDir());
        String front = state.url("front").orElseThrow();

        assertThat(up.text()).contains("the back end and the front end in " + displayName,
                "  front        " + front + "/hare", "  run folder   " + runDir + "  (" + product + "/",
                "status every 1 s").doesNotContain("nginx_status", "  status  ");
        assertThat(runDir.resolve(config)).isRegularFile();
        List<ProcessHandle> tiers = new ArrayList<>();
        for (UpState.Child child : state.children()) {
            ProcessHandle.of(child.pid()).ifPresent(h -> {
                tiers.add(h);
                tiers.addAll(h.descendants().toList());
            });
        }

        int port = state.ports().get("front");
        assertThat(Http.raw("127.0.5.1", port, "GET", "/tortoise").header("X-Cache-Status")).isEqualTo("MISS");
        assertThat(Http.raw("127.0.5.2", port, "GET", "/tortoise").header("X-Cache-Status")).isEqualTo("HIT");
        List<Integer> statuses = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            statuses.add(Http.raw("127.0.5.3", port, "GET", "/tortoise").status());
        }
        assertThat(statuses).as("one a second from one address").contains(429);
        String number = "[0-9]+\\.[0-9]";
        String nonZero = "([1-9][0-9]*\\.[0-9]|0\\.[1-9])";
        String line = "\\d\\d:\\d\\d:\\d\\d  front %s  back %s  origin %s req/s  rejected %s/s  HIT (%s|-) %%  in-flight \\d+";
        await().atMost(Duration.ofSeconds(15)).until(() -> up.text().lines()
                .anyMatch(l -> l.matches(line.formatted(number, number, number, number, nonZero))));
        await().atMost(Duration.ofSeconds(15)).until(() -> up.text().lines()
                .anyMatch(l -> l.matches(line.formatted(nonZero, number, number, nonZero, number))));

        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        assertThat(run(out, err, "down", "--results", results.toString())).as(err.toString()).isZero();
        assertAllGone(up, state);
        assertThat(tiers).as("the tiers and their own children").noneMatch(ProcessHandle::isAlive);
        assertThat(up.process().waitFor(Duration.ofSeconds(10))).as(up.text()).isZero();
        return runDir;
    }

    @Test
    @LongTest
    void ctrlCStopsEverything() throws Exception {
        Path results = TestDirs.fresh(UpDownTest.class, "sigint");
        Up up = up(results, "up", Map.of());
        UpState state = awaitRunning(up);
        assertThat(Http.get(URI.create(state.url("front").orElseThrow()), "/hare").statusCode()).isEqualTo(200);

        // What a terminal's Ctrl-C sends, to the up's PID alone.
        assertThat(up.process().pid()).isEqualTo(state.pid());
        up.process().signal("INT");

        assertAllGone(up, state);
        assertThat(up.text()).contains("run-tests.sh up: stopped");
        assertThat(up.process().waitFor(Duration.ofSeconds(10))).as("the shell's code for Ctrl-C").isEqualTo(130);
    }

    @Test
    @LongTest
    void withTlsItPrintsTheHttpsUrlAndACurlLineWithTheRunsCa() throws Exception {
        Path results = TestDirs.fresh(UpDownTest.class, "tls");
        int httpPort = Ports.free();
        Up up = up(results, "up", Map.of(), "--tls", "--http-port", String.valueOf(httpPort));
        UpState state = awaitRunning(up);
        String front = state.url("front").orElseThrow();
        Path ca = Path.of(state.runDir(), "tls/ca.pem");

        assertThat(front).startsWith("https://" + Ports.LOOPBACK + ":");
        assertThat(up.text()).contains("curl --cacert " + ca + " " + front + "/hare",
                "http://" + Ports.LOOPBACK + ":" + httpPort + "  (redirects to https)");
        // The curl line as printed, from a shell.
        ManagedProcess.Outcome curl = ManagedProcess.run(List.of("curl", "-sS", "-o", "/dev/null", "-w", "%{http_code}",
                "--cacert", ca.toString(), front + "/hare"), Duration.ofSeconds(30));
        assertThat(curl.stdout()).as(curl.text()).isEqualTo("200");

        up.process().signal("INT");
        assertAllGone(up, state);
    }

    @Test
    void aTakenPortIsRefusedBeforeAnythingStarts() throws Exception {
        Path results = TestDirs.fresh(UpDownTest.class, "port");
        int taken = Ports.free();
        try (ServerSocket occupier = new ServerSocket(taken, 1, InetAddress.getByName(Ports.LOOPBACK))) {
            Up up = up(results, "up", Map.of(), StackPorts.free().front(taken));
            assertThat(up.process().waitFor(Duration.ofSeconds(60))).as(up.text()).isEqualTo(2);
            assertThat(up.text()).contains("port " + taken + " is already in use", "--front-port");
        }
        assertThat(UpState.pointer(results)).doesNotExist();
        try (var folders = Files.list(results)) {
            assertThat(folders.filter(f -> f.getFileName().toString().startsWith("up-"))).isEmpty();
        }
    }

    @Test
    @LongTest
    void aStartThatFailsAfterTheOriginIsUpLeavesNothingRunning() throws Exception {
        Path results = TestDirs.fresh(UpDownTest.class, "failed");
        // nginx -t fails (a binary that always exits 1): by then the origin is already running.
        Up up = up(results, "up", Map.of("NGINX_BIN", "/bin/false"));
        assertThat(up.process().waitFor(Duration.ofSeconds(120))).as(up.text()).isEqualTo(1);
        assertThat(up.text().lines().filter(l -> l.startsWith("run-tests.sh up: could not start: nginx -t rejects")))
                .as(up.text()).hasSize(1);
        assertThat(Ports.accepting(up.ports().origin())).isFalse();
        assertThat(Ports.accepting(up.ports().management())).isFalse();
        assertThat(UpState.pointer(results)).doesNotExist();
        try (var folders = Files.list(results)) {
            Path runDir = folders.filter(f -> f.getFileName().toString().startsWith("up-")).findFirst().orElseThrow();
            assertThat(runDir.resolve("origin.log")).exists();
            assertThat(runDir.resolve(UpState.FILE)).doesNotExist();
        }
    }

    @Test
    void downWithNothingRunningSaysSoAndCleansAStaleState() throws Exception {
        Path results = TestDirs.fresh(UpDownTest.class, "stale");
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        assertThat(run(out, err, "down", "--results", results.toString())).isZero();
        assertThat(out.toString()).startsWith("run-tests.sh down: no up is running (no ");

        ManagedProcess gone = ManagedProcess.start("true", List.of("true"), results, results.resolve("true.out"));
        gone.waitFor(Duration.ofSeconds(10));
        Files.createDirectories(results.resolve("up-0"));
        new UpState(gone.pid(), 1, results.resolve("up-0").toString(), List.of(), Map.of(), Map.of()).write(results);
        StringWriter stale = new StringWriter();
        assertThat(run(stale, err, "down", "--results", results.toString())).isZero();
        assertThat(stale.toString()).startsWith("run-tests.sh down: no up is running (removed the state of PID " + gone.pid());
        assertThat(UpState.pointer(results)).doesNotExist();
    }
}
