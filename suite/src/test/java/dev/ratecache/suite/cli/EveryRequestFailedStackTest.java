package dev.ratecache.suite.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.ratecache.testkit.StackTest;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import org.junit.jupiter.api.Test;

/**
 * A run whose every request failed is no completed run: the second probe's origin that was not
 * there ran 23 s of errors and said "every cell completed", exit 0. Here the origin answers the
 * check before the run (any status will do) and then fails every request, as one that died would:
 * the cell is failed, the exit code 1, and checks.xml, which CI reads, has the failure.
 */
@StackTest
class EveryRequestFailedStackTest {
    @Test
    void aCellWhoseEveryRequestFailedFailsTheRunAndChecksXml() throws Exception {
        HttpServer failing = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        failing.createContext("/", exchange -> {
            exchange.sendResponseHeaders(exchange.getRequestURI().getPath().equals("/") ? 200 : 500, -1);
            exchange.close();
        });
        failing.start();
        try {
            MatrixRun run = MatrixRun.of(getClass(), "default", java.util.List.of("stress/no-caching"),
                    "--origin", "http://127.0.0.1:" + failing.getAddress().getPort(), "-Jusers=2", "-Jloops=2",
                    "-Jrampup=0");

            assertThat(run.exitCode).as(run.output()).isEqualTo(1);
            assertThat(run.cli.err()).contains("some cells failed");
            assertThat(run.output()).contains("every request failed (");
            assertThat(Files.readString(run.run.resolve("checks.xml"))).contains("name=\"stress/no-caching completed\"",
                    "<failure message=\"cell stress/no-caching failed: every request failed (");
        } finally {
            failing.stop(0);
        }
    }
}
