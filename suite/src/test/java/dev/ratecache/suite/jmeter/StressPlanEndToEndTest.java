package dev.ratecache.suite.jmeter;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.jtl.JtlSummary;
import dev.ratecache.suite.Repo;
import dev.ratecache.suite.origin.OriginServer;
import dev.ratecache.suite.stack.SharedOrigin;
import dev.ratecache.suite.stack.Stack;
import dev.ratecache.suite.stack.Stacks;
import dev.ratecache.suite.switches.StackSwitches;
import dev.ratecache.testkit.LongTest;
import dev.ratecache.testkit.StackTest;
import dev.ratecache.testkit.TestDirs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** stress.jmx through the whole stack, small: real JMeter, real tiers, real origin. */
@StackTest
@LongTest
@ExtendWith(SharedOrigin.class)
class StressPlanEndToEndTest {

    @Test
    void stressPlanThroughTheStackWritesOneSamplePerRequest(OriginServer origin) throws Exception {
        Path dir = TestDirs.fresh(getClass(), "stress");
        try (Stack stack = Stacks.around(origin, dir, new StackSwitches())) {
            JMeter.Run run = JMeter.assembled().run(Repo.plans().resolve("stress.jmx"),
                    Map.of("host", "127.0.0.1", "port", String.valueOf(stack.ports().front()),
                            "users", "5", "loops", "4", "rampup", "1"),
                    dir.resolve("jmeter"));

            assertThat(run.exitCode()).isZero();
            JtlSummary summary = JtlSummary.read(run.jtl());
            assertThat(summary.samples()).isEqualTo(20);
            assertThat(summary.otherErrors()).isZero();
            // Only the first request of each 3 s freshness window reaches the origin.
            assertThat(stack.origin().counters().requests("hare")).isBetween(1L, 3L);
            assertThat(Files.readString(run.jtl())).contains("/hare");
        }
    }
}
