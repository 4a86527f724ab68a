package dev.ratecache.suite.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.ratecache.model.Vsthrottle;
import dev.ratecache.proc.Executables;
import dev.ratecache.proc.ManagedProcess;
import dev.ratecache.proc.Poll;
import dev.ratecache.proc.Ports;
import dev.ratecache.suite.edge.VarnishEdge;
import dev.ratecache.testkit.StackTest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The vsthrottle model against Varnish 7.1 with varnish-modules 0.20 itself: one client's burst
 * and streams go through vsthrottle.is_denied in a real varnishd, and the model, fed the times
 * Varnish logged, must give every request Varnish's decision.
 *
 * <p>Times: vcl_recv logs VCL's {@code now} (the request's last timestamp, a wall-clock reading
 * taken just before vcl_recv) in microseconds, and varnishncsa writes it with the status. The
 * vmod reads its own monotonic clock inside is_denied, microseconds later, so the two differ by
 * the VCL run up to the call (and by a worker preempted there, on a busy machine). The lines are
 * put back in processing order by that time, except that of requests less than 2 ms apart (the
 * tolerance below) Varnish's worker threads may have taken the bucket's lock in another order:
 * the passed ones then come first, as they did under the lock (earlier calls take the tokens, and
 * 2 ms refill a hundredth of a token at the rates here).
 *
 * <p>Tolerance: a request whose decision flips when its time, or its predecessor's (which set the
 * bucket it met), moves by up to 2 ms is at a boundary: the refill is continuous, so some request
 * always falls within the clocks' gap of earning its token. The replay then keeps the moved time,
 * so that the bucket follows Varnish. Nothing else is forgiven.
 */
@StackTest
class VsthrottleAgainstVarnishTest {

    /** VCL's INT stops at 10^15: microseconds counted from here fit for thirty years. */
    static final long EPOCH_SECONDS = 1_700_000_000L;

    /** One is_denied call site's limit, period and block. */
    record Spec(long limit, double periodSeconds, double blockSeconds) {
    }

    static final Spec STREAM = new Spec(5, 1, 0);
    static final Spec BLOCK = new Spec(3, 1, 2);

    @TempDir
    static Path dir;

    static ManagedProcess varnishd;
    static ManagedProcess ncsa;
    static int port;

    @BeforeAll
    static void startVarnish() throws IOException {
        port = Ports.free();
        // As root varnishd drops privileges to its own users, which must reach its working directory.
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
        Path vcl = dir.resolve("throttle.vcl");
        // Varnish answers every request itself (synth), so no backend is needed.
        Files.writeString(vcl, """
                vcl 4.1;
                import std;
                import vsthrottle;
                backend default none;
                sub vcl_recv {
                  std.log("now:" + std.integer(real=(std.real(time=now) - %d) * 1000000));
                  if (req.url == "/block") {
                    if (vsthrottle.is_denied(client.ip, %d, %ds, %ds)) {
                      return (synth(429));
                    }
                  } else if (vsthrottle.is_denied(client.ip, %d, %ds)) {
                    return (synth(429));
                  }
                  return (synth(200));
                }
                """.formatted(EPOCH_SECONDS, BLOCK.limit(), (long) BLOCK.periodSeconds(),
                (long) BLOCK.blockSeconds(), STREAM.limit(), (long) STREAM.periodSeconds()));
        Path workDir = dir.resolve("varnish");
        // -T none: no management port; the test needs only the listener it was given.
        varnishd = ManagedProcess.start("varnishd", List.of(VarnishEdge.binary(), "-F", "-T", "none",
                        "-n", workDir.toString(), "-a", Ports.LOOPBACK + ":" + port,
                        "-f", vcl.toString(), "-s", "malloc,16m"),
                dir, dir.resolve("varnishd.log"));
        Instant deadline = Instant.now().plus(Duration.ofSeconds(60));
        while (!Ports.accepting(port)) {
            if (!varnishd.isAlive() || Instant.now().isAfter(deadline)) {
                throw new IOException("varnishd did not start on port " + port + ": " + varnishd.logTail(10));
            }
            Poll.pause(50);
        }
        ncsa = ManagedProcess.start("varnishncsa", List.of(Executables.find("varnishncsa", "VARNISHNCSA_BIN",
                        "/usr/bin/varnishncsa"), "-n", workDir.toString(), "-F", "%{VCL_Log:now}x %s %{X-Id}i %h %U"),
                dir, dir.resolve("access.log"), dir.resolve("varnishncsa.log"));
        // varnishncsa logs from when it attaches: a request it logged says it is there.
        Path log = dir.resolve("access.log");
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100)).until(() -> {
            Nginx.get("127.16.0.10", port, "/", "warm-up");
            return Files.exists(log) && Files.readString(log).contains("warm-up");
        });
    }

    @AfterAll
    static void stopVarnish() {
        if (ncsa != null) {
            ncsa.close();
        }
        if (varnishd != null) {
            varnishd.close();
        }
    }

    /** One logged request: VCL's now in µs, the status, the request's id, client and path. */
    record Line(long micros, int status, String id, String client, String path) {
        static Line parse(String line) {
            String[] f = line.split(" ");
            return new Line(Long.parseLong(f[0]), Integer.parseInt(f[1]), f[2], f[3], f[4]);
        }

        boolean passed() {
            return status == 200;
        }
    }

    /** One compared request: whether the model passed it. */
    record Row(Line line, boolean modelPassed, boolean matched, boolean tolerated) {
    }

    /** The moves tried for a time, in µs, nearest first. */
    static final long[] SHIFTS_US = {-100, 100, -500, 500, -1000, 1000, -2000, 2000};

    /** Processing order: by time, and of requests under 2 ms apart the passed first. */
    static List<Line> inProcessingOrder(List<Line> log) {
        List<Line> lines = new ArrayList<>(log);
        lines.sort(Comparator.comparingLong(Line::micros));
        for (boolean swapped = true; swapped; ) {
            swapped = false;
            for (int i = 1; i < lines.size(); i++) {
                Line a = lines.get(i - 1);
                Line b = lines.get(i);
                if (!a.passed() && b.passed() && b.micros() - a.micros() < 2000) {
                    lines.set(i - 1, b);
                    lines.set(i, a);
                    swapped = true;
                }
            }
        }
        return lines;
    }

    /** Whether the model passes request {@code upTo}, replaying 0..upTo from an empty table. */
    static boolean replay(Spec spec, List<Line> lines, long[] micros, int upTo) {
        Vsthrottle model = new Vsthrottle(spec.limit(), spec.periodSeconds(), spec.blockSeconds());
        boolean passed = false;
        long last = Long.MIN_VALUE;
        for (int j = 0; j <= upTo; j++) {
            // Under the lock, a later call reads a later monotonic clock.
            last = Math.max(last, micros[j]);
            passed = !model.isDenied(lines.get(j).client(), last / 1e6);
        }
        return passed;
    }

    static List<Row> compare(Spec spec, List<Line> log) {
        List<Line> lines = inProcessingOrder(log);
        long[] micros = lines.stream().mapToLong(Line::micros).toArray();
        List<Row> rows = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            boolean passed = replay(spec, lines, micros, i);
            if (passed == lines.get(i).passed()) {
                rows.add(new Row(lines.get(i), passed, true, false));
                continue;
            }
            boolean tolerated = shifted(spec, lines, micros, i, i) || (i > 0 && shifted(spec, lines, micros, i, i - 1));
            rows.add(new Row(lines.get(i), tolerated ? lines.get(i).passed() : passed, false, tolerated));
        }
        return rows;
    }

    /**
     * Moves request {@code moved} until request {@code i} gets Varnish's decision and {@code moved}
     * keeps its own; keeps the first such move in {@code micros}.
     */
    static boolean shifted(Spec spec, List<Line> lines, long[] micros, int i, int moved) {
        long original = micros[moved];
        for (long shift : SHIFTS_US) {
            micros[moved] = original + shift;
            if (replay(spec, lines, micros, i) == lines.get(i).passed()
                    && replay(spec, lines, micros, moved) == lines.get(moved).passed()) {
                return true;
            }
        }
        micros[moved] = original;
        return false;
    }

    static String describe(List<Row> rows) {
        StringBuilder b = new StringBuilder();
        long t0 = rows.isEmpty() ? 0 : rows.get(0).line().micros();
        b.append("µs after ").append(t0).append(System.lineSeparator());
        for (Row r : rows) {
            b.append(String.format("%9d %-6s varnish=%-6s model=%-6s %s%n", r.line().micros() - t0, r.line().id(),
                    r.line().passed() ? "PASSED" : "DENIED", r.modelPassed() ? "PASSED" : "DENIED",
                    r.matched() ? "" : r.tolerated() ? "(boundary)" : "MISMATCH"));
        }
        return b.toString();
    }

    List<Line> run(List<Traffic.Planned> plan, String idPrefix) throws Exception {
        Map<String, Integer> wire = Traffic.send(port, plan, System.currentTimeMillis() + 50);
        Path file = dir.resolve("access.log");
        await().atMost(Duration.ofMinutes(1)).pollInterval(Duration.ofMillis(50)).until(() ->
                Files.exists(file) && lines(file, idPrefix).size() >= plan.size());
        List<Line> log = lines(file, idPrefix);
        assertThat(log).hasSize(plan.size());
        // What the client got is what Varnish logged.
        for (Line l : log) {
            assertThat(wire.get(l.id())).as(l.id()).isEqualTo(l.status());
        }
        return log;
    }

    static List<Line> lines(Path file, String idPrefix) throws IOException {
        return Files.readAllLines(file).stream().map(Line::parse).filter(l -> l.id().startsWith(idPrefix))
                .toList();
    }

    static void assertMatches(List<Row> rows) {
        String table = describe(rows);
        System.out.println("varnish:\n" + table);
        assertThat(rows).as(table).allMatch(r -> r.matched() || r.tolerated());
        long exact = rows.stream().filter(Row::matched).count();
        System.out.printf("exact %d of %d, boundary %d%n", exact, rows.size(), rows.size() - exact);
        assertThat(rows.stream().map(Row::modelPassed).collect(Collectors.toSet())).containsExactlyInAnyOrder(true, false);
    }

    /**
     * A burst of eight against 5 a second, a stream at 8 a second for two seconds (each 125 ms
     * earns 0.625 of a token: the fraction lost at each pass lets only one in two through, 4 a
     * second, under the limit: varnish-modules#237), then 3 a second, which all pass.
     */
    @Test
    void burstAndStreamsMatchVsthrottle() throws Exception {
        assertMatches(compare(STREAM, run(Traffic.burstThenStreams("127.16.0.8", "v-"), "v-")));
    }

    /**
     * A burst of five against 3 a second with a 2 s block: the fourth is denied and blocks the
     * key; polled every 200 ms, the blocked key earns nothing (each denied call moves last_used);
     * after a pause the block is over and the bucket full.
     */
    @Test
    void blockMatchesVsthrottle() throws Exception {
        List<Traffic.Planned> plan = new ArrayList<>();
        int id = 0;
        for (int i = 0; i < 5; i++) {
            plan.add(new Traffic.Planned(0, "127.16.0.9", "/block", "b-" + id++));
        }
        for (long t = 300; t <= 2700; t += 200) {
            plan.add(new Traffic.Planned(t, "127.16.0.9", "/block", "b-" + id++));
        }
        for (long t = 5500; t <= 6500; t += 250) {
            plan.add(new Traffic.Planned(t, "127.16.0.9", "/block", "b-" + id++));
        }
        assertMatches(compare(BLOCK, run(plan, "b-")));
    }
}
