package dev.ratecache.suite.nginx;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ratecache.proc.Ports;
import dev.ratecache.suite.stack.StackPorts;
import dev.ratecache.suite.switches.StackSwitches;
import dev.ratecache.testkit.StackTest;
import dev.ratecache.testkit.TestDirs;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Starting one tier: up means every listener bound, not just the first one accepting. */
@StackTest
class NginxServerTest {

    @Test
    void tierWhoseStatusPortIsTakenFailsToStartThoughItsMainPortListenedForAWhile() throws Exception {
        StackPorts ports = StackPorts.free();
        Path prefix = TestDirs.fresh(NginxServerTest.class, "status-port-taken");
        try (ServerSocket taken = new ServerSocket(ports.frontStatus(), 1, InetAddress.getByName(Ports.LOOPBACK))) {
            NginxServer front = NginxServer.prepare(Tier.FRONT, new StackSwitches().spec(ports), prefix);

            assertThatThrownBy(front::start).isInstanceOf(IOException.class)
                    .hasMessageContaining("the front tier did not start on port " + ports.front())
                    .hasMessageContaining("Address already in use");
            assertThat(Ports.accepting(ports.front())).as("nothing left listening").isFalse();
        }
    }

    /** A one-line error (up's, a failed cell's) shows the first line only: nginx's reason must be on it. */
    @Test
    void aConfigNginxRejectsFailsWithNginxsReasonOnTheFirstLine() {
        // An origin the command line refuses, set in code: nginx -t is what refuses it here.
        StackSwitches switches = new StackSwitches().origins(List.of(URI.create("http://127.0.0.1:70000")));
        Path prefix = TestDirs.fresh(NginxServerTest.class, "rejected");

        assertThatThrownBy(() -> NginxServer.prepare(Tier.BACK, switches.spec(StackPorts.free()), prefix))
                .isInstanceOf(IOException.class)
                .satisfies(e -> assertThat(e.getMessage().lines().findFirst().orElseThrow())
                        .startsWith("nginx -t rejects the back config ")
                        .containsPattern(": invalid port in upstream \"127\\.0\\.0\\.1:70000\" in back-end\\.conf:\\d+$"));
    }
}
