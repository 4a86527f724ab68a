package dev.ratecache.suite.peak;

import dev.ratecache.suite.net.Ports;
import dev.ratecache.suite.nginx.NginxServer;
import dev.ratecache.suite.proc.ManagedProcess;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The ceiling a tier is compared with: an nginx that answers every request with {@code return 200}
 * and a fixed body, with the tiers' worker and keep-alive settings and nothing else (no log, no
 * headers, no cache, no limits). Started by PID in its own prefix, like the tiers.
 */
public final class CeilingServer implements AutoCloseable {
    private final Path prefix;
    private final int port;
    private final ManagedProcess process;

    private CeilingServer(Path prefix, int port, ManagedProcess process) {
        this.prefix = prefix;
        this.port = port;
        this.process = process;
    }

    /** The config: {@code workers} as the tiers' worker_processes, a body of {@code bodyBytes} bytes. */
    static String config(String workers, int port, int bodyBytes) {
        return """
                # The ceiling for ./run-tests.sh peak: nginx's fastest answer, a fixed body
                # from memory. Worker and keep-alive settings as the tiers' (snippets/shared/
                # workers.conf and basics.conf), so only the work per request differs.
                worker_processes %s;
                worker_rlimit_nofile 8192;
                events {
                  worker_connections 4096;
                }
                http {
                  server_tokens off;
                  keepalive_timeout 15s;
                  keepalive_requests 10000;
                  access_log off;
                  server {
                    listen %s:%d;
                    location / {
                      default_type application/json;
                      return 200 '%s';
                    }
                  }
                }
                """.formatted(workers, Ports.LOOPBACK, port, "x".repeat(bodyBytes));
    }

    /** Writes the config into {@code prefix}/conf, starts nginx and waits until it answers. */
    public static CeilingServer start(Path prefix, String workers, int port, int bodyBytes) throws IOException {
        Files.createDirectories(prefix.resolve("conf"));
        Files.createDirectories(prefix.resolve("logs"));
        Files.writeString(prefix.resolve("conf/ceiling.conf"), config(workers, port, bodyBytes));
        Path pid = prefix.toAbsolutePath().resolve("nginx.pid");
        ManagedProcess process = ManagedProcess.start("nginx ceiling", List.of(NginxServer.binary(),
                "-p", prefix.toAbsolutePath() + "/", "-c", "conf/ceiling.conf", "-e", "logs/error.log",
                "-g", "daemon off; pid " + pid + ";"), prefix, prefix.resolve("logs/nginx.out"));
        CeilingServer server = new CeilingServer(prefix, port, process);
        try {
            NginxServer.awaitStarted(process, pid, port, prefix.resolve("logs/error.log"), "the ceiling nginx");
        } catch (IOException e) {
            server.close();
            throw e;
        }
        return server;
    }

    public URI uri() {
        return URI.create("http://" + Ports.LOOPBACK + ":" + port + "/");
    }

    /** The master's PID; its workers are its children. */
    public long pid() {
        return process.pid();
    }

    public Path prefix() {
        return prefix;
    }

    @Override
    public void close() {
        process.close();
    }
}
