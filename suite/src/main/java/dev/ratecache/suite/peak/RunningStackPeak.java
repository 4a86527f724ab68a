package dev.ratecache.suite.peak;

import dev.ratecache.proc.Ports;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Peak throughput of a stack that {@code ./run-tests.sh up} keeps running, as it is configured:
 * its front end on one path against nginx's ceiling ({@code return 200} of a body of the same
 * size) in the same rounds. Unlike {@link PeakRun}, nothing is tuned for the measurement: the
 * running stack's limits apply, so a binding per-client limit shows as rejections (wrk is one
 * client), and that is the figure to read beside the ratio.
 */
public final class RunningStackPeak {
    /** One round: the ceiling's run and the front's, with the front tree's CPU per request (NaN without its PID). */
    public record Round(Wrk.Result ceiling, Wrk.Result front, double frontCpuMicros) {
        public double ratio() {
            return Spread.ratio(front.requestsPerSecond(), ceiling.requestsPerSecond());
        }
    }

    /** Every round, and the body size compared. */
    public record Outcome(int bodyBytes, List<Round> rounds) {
        public double medianRatio() {
            return new Spread(rounds.stream().map(Round::ratio).toList()).median();
        }

        public String table() {
            StringBuilder s = new StringBuilder(String.format(Locale.ROOT, "body %d bytes. ratio: the running front's"
                    + " requests/s over the ceiling's in the same round; rejected: its answers that were not 2xx/3xx"
                    + " (its limits apply: wrk is one client).%n", bodyBytes));
            s.append(String.format(Locale.ROOT, "%-6s %12s %12s %6s %9s %8s %8s%n", "round", "ceiling r/s", "front r/s",
                    "ratio", "rejected", "cpu us", "p99 ms"));
            int i = 0;
            for (Round r : rounds) {
                s.append(String.format(Locale.ROOT, "%-6d %12.0f %12.0f %6.2f %8.1f%% %8.1f %8.3f%n", ++i,
                        r.ceiling().requestsPerSecond(), r.front().requestsPerSecond(), r.ratio(),
                        100 * r.front().non2xxShare(), r.frontCpuMicros(), r.front().latencyP99()));
            }
            s.append(String.format(Locale.ROOT, "median ratio %.2f%n", medianRatio()));
            return s.toString();
        }
    }

    private RunningStackPeak() {}

    /**
     * Measures {@code front}'s path for the rounds, each after the ceiling's; {@code frontPid} is the
     * running front end's master (its workers are its children), or -1. Of the options, the load,
     * the rounds, the path, the ceiling's workers and the folder count: the stack is the running one.
     */
    public static Outcome run(PeakOptions options, URI front, long frontPid, PrintWriter progress)
            throws IOException, InterruptedException {
        URI url = front.resolve(options.path());
        HttpResponse<byte[]> first = PeakHarness.HTTP.send(HttpRequest.newBuilder(url).timeout(Duration.ofSeconds(30))
                .build(), HttpResponse.BodyHandlers.ofByteArray());
        if (first.statusCode() >= 400) {
            throw new IOException(url + " answered " + first.statusCode() + ": give --url a path the running stack serves");
        }
        int bodyBytes = first.body().length;
        List<Round> done = new ArrayList<>();
        try (PeakHarness h = new PeakHarness(options, progress)) {
            CeilingServer ceiling = h.started(CeilingServer.start(options.dir().resolve("ceiling"), options.workers(),
                    Ports.free(), bodyBytes));
            long[] frontPids = frontPid > 0 ? new long[] {frontPid} : new long[0];
            h.rounds(round -> {
                h.say("  round %d: ceiling: return 200  %s%n", round, ceiling.uri());
                Wrk.Result top = h.wrk(ceiling.uri(), null, "ceiling-" + round).result();
                h.say("  round %d: the running front  %s%n", round, url);
                PeakHarness.Measured<Wrk.Result> measured = h.wrk(url, null, "front-" + round, frontPids);
                done.add(new Round(top, measured.result(), measured.cpuMicros()));
            });
        }
        return new Outcome(bodyBytes, done);
    }
}
