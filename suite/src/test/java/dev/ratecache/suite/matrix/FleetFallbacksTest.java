package dev.ratecache.suite.matrix;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.suite.edge.NginxLog;
import dev.ratecache.suite.spec.FleetLimit;
import dev.ratecache.suite.stack.StackPorts;
import dev.ratecache.suite.switches.StackSwitches;
import dev.ratecache.testkit.TestDirs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/** What the fleet's Redis said to a cell's edges, from made-up edge logs: for any cell with the shared limit. */
class FleetFallbacksTest {
    /** The user's switches of the run: three edges sharing the limit in a Redis that does not answer. */
    private static final StackSwitches SHARED_UNREACHABLE = new StackSwitches().edges(3).fleetLimit(FleetLimit.SHARED)
            .fleetRedis("127.0.0.1:6390");
    private static final StackPorts PORTS = new StackPorts();

    /** An edge's access log, one JSON line a request, each with its fleet value. */
    private static Path edgeLog(Path dir, String edge, List<String> fleet) throws IOException {
        Path log = Files.createDirectories(dir.resolve(edge)).resolve("access.log");
        List<String> lines = new ArrayList<>();
        for (String f : fleet) {
            lines.add("{\"msec\":1700000000.000,\"uri\":\"/hare\",\"status\":200,\"cache\":\"\",\"limit_req\":\"\","
                    + "\"fleet\":\"" + f + "\"}");
        }
        return Files.write(log, lines);
    }

    @Test
    void aDefaultMatrixCellWithTheSharedLimitIsCountedAndSaysMostFellBackNamingItsRedis(TestInfo test) throws Exception {
        Path dir = TestDirs.fresh(test);
        StackSwitches cell = Matrix.reference(List.of(Plan.STRESS)).get(0).apply(SHARED_UNREACHABLE);
        List<Path> logs = List.of(edgeLog(dir, "front-1", Collections.nCopies(67, "FALLBACK")),
                edgeLog(dir, "front-2", Collections.nCopies(67, "FALLBACK")),
                edgeLog(dir, "front-3", Collections.nCopies(66, "FALLBACK")));

        FleetFallbacks f = FleetFallbacks.of(cell.spec(PORTS), NginxLog.events(logs));

        assertThat(f).isEqualTo(new FleetFallbacks("127.0.0.1:6390", 200, 200));
        assertThat(f.mostFellBack()).isTrue();
        assertThat(f.warning()).isEqualTo("SHARED LIMIT NOT RUN: 200 of 200 requests (100 %) fell back to each edge's"
                + " own split limit because the fleet's Redis at 127.0.0.1:6390 was unreachable or slower than"
                + " --fleet-redis-timeout, so these figures are --fleet-limit split's; check that Redis answers there"
                + " (--fleet-redis), or raise --fleet-redis-timeout");
    }

    @Test
    void onlyRequestsThatAskedRedisCountAndHalfFallingBackIsNotMost(TestInfo test) throws Exception {
        Path dir = TestDirs.fresh(test);
        List<Path> logs = List.of(edgeLog(dir, "front-1", List.of("PASSED", "FALLBACK", "EXEMPT", "NONE")),
                edgeLog(dir, "front-2", List.of("REJECTED", "FALLBACK", "DELAYED", "FALLBACK")),
                dir.resolve("front-3/access.log"));

        FleetFallbacks f = FleetFallbacks.of(
                SHARED_UNREACHABLE.copy().fleetRedis(null).spec(PORTS).withFleetRedis("127.0.0.1:41234"), NginxLog.events(logs));

        assertThat(f).isEqualTo(new FleetFallbacks("127.0.0.1:41234", 6, 3));
        assertThat(f.mostFellBack()).isFalse();
    }

    @Test
    void aCellWithoutTheSharedLimitHasNoFigures(TestInfo test) throws Exception {
        Path dir = TestDirs.fresh(test);
        List<Path> logs = List.of(edgeLog(dir, "front-1", List.of("FALLBACK")));

        assertThat(FleetFallbacks.of(new StackSwitches().edges(3).fleetLimit(FleetLimit.SPLIT).spec(PORTS), NginxLog.events(logs))).isNull();
        assertThat(FleetFallbacks.of(SHARED_UNREACHABLE.copy().frontLimit(false).spec(PORTS), NginxLog.events(logs))).isNull();
        assertThat(FleetFallbacks.of(SHARED_UNREACHABLE.copy().edges(1).spec(PORTS), NginxLog.events(logs))).isNull();
    }
}
