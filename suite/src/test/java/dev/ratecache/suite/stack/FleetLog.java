package dev.ratecache.suite.stack;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ratecache.proc.RedisServer;
import dev.ratecache.suite.edge.NginxLog;
import dev.ratecache.suite.nginx.NginxRenderer;
import dev.ratecache.testkit.Required;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** One client's requests as a fleet of edges logged them, and what the per-client promise lets through. */
public final class FleetLog {
    private static final Pattern SEQUENCE = Pattern.compile("[?&]t=(\\d+)(?:&|$)");

    private FleetLog() {}

    /**
     * Every line the edges logged for {@code client}, by the time nginx logged them, each with the
     * edge's number added as "edge"; read once the edges have stopped (their logs are buffered).
     * Two answers can share $msec's millisecond, so this order is not the client's: a test that
     * asserts on the order takes {@link #inSendOrder}.
     */
    public static List<JsonNode> clientLines(List<Path> edgeLogs, String client) throws IOException {
        List<JsonNode> lines = new ArrayList<>();
        for (int edge = 0; edge < edgeLogs.size(); edge++) {
            for (JsonNode e : NginxLog.entries(edgeLogs.get(edge))) {
                if (e.path("client").asText().equals(client)) {
                    lines.add(((ObjectNode) e).put("edge", edge));
                }
            }
        }
        lines.sort(Comparator.comparingDouble(e -> e.path("msec").asDouble()));
        return lines;
    }

    /**
     * The lines in the order a client that sends one request at a time sent them: by the sequence
     * number {@link Stacks#fresh} puts in each URI ("?t=N", from one counter). Neither $msec (two
     * answers in one millisecond) nor the log's order (buffered lines of two workers, or edges)
     * can say which came first.
     */
    public static List<JsonNode> inSendOrder(List<JsonNode> lines) {
        return lines.stream().sorted(Comparator.comparingLong(FleetLog::sequence)).toList();
    }

    private static long sequence(JsonNode line) {
        Matcher m = SEQUENCE.matcher(line.path("uri").asText());
        if (!m.find()) {
            throw new IllegalArgumentException("no sequence number (Stacks.fresh's ?t=N) in " + line);
        }
        return Long.parseLong(m.group(1));
    }

    /**
     * The most a limit of {@code rate} requests/s with {@code burst} lets through: burst + 1 at once,
     * and {@code rate} more a second between the first and the last admitted request, by the times
     * nginx saw them arrive ($msec less $request_time), however slowly a busy machine sent them.
     */
    public static long promised(List<JsonNode> lines, int rate, int burst) {
        List<Double> admitted = lines.stream().filter(e -> e.path("status").asInt() == 200)
                .map(e -> e.path("msec").asDouble() - e.path("request_time").asDouble()).sorted().toList();
        double seconds = admitted.isEmpty() ? 0 : admitted.get(admitted.size() - 1) - admitted.get(0);
        return burst + 1 + (long) Math.ceil(seconds * rate);
    }

    /** What --fleet-limit shared needs here: redis-server and nginx's Lua module (skipped without, failed under CI). */
    public static void requireSharedLimit() {
        Required.that(RedisServer.notInstalled().isEmpty(), RedisServer.notInstalled().orElse(""));
        Required.that(Files.isRegularFile(NginxRenderer.LUA_MODULE),
                "nginx's Lua module is missing: apt-get install libnginx-mod-http-lua");
    }

    /** How many edges logged the lines. */
    public static long edgesSeen(List<JsonNode> lines) {
        return lines.stream().map(e -> e.path("edge").asInt()).distinct().count();
    }

    /** Each line's "fleet" field: what the fleet's Redis said. */
    public static List<String> fleetOutcomes(List<JsonNode> lines) {
        return lines.stream().map(e -> e.path("fleet").asText()).toList();
    }
}
