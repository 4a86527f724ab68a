package dev.ratecache.proc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.testkit.StackTest;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

@StackTest
class PortsTest {

    @Test
    void freePortsAreDistinctBindableAndBelowTheEphemeralRange() throws Exception {
        int ephemeralStart = Ports.sysctl("net.ipv4.ip_local_port_range").orElseThrow();

        List<Integer> ports = IntStream.range(0, 50).mapToObj(i -> Ports.free()).toList();

        assertThat(ports).doesNotHaveDuplicates();
        assertThat(ports).allSatisfy(p -> assertThat(p).isBetween(10_000, ephemeralStart - 1));
        assertThat(ports).allSatisfy(p -> assertThat(Ports.problem(p, "--front-port")).isEmpty());
    }
}
