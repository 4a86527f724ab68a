package dev.ratecache.suite.peak;

import dev.ratecache.proc.Ports;
import dev.ratecache.suite.nginx.NginxServer;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The ceiling a tier is compared with: an nginx that answers every request with {@code return 200}
 * and a fixed body, with the tiers' worker and keep-alive settings and nothing else (no log, no
 * headers, no cache, no limits). Started by PID in its own prefix, like the tiers.
 */
public final class CeilingServer implements AutoCloseable {
    private final NginxServer nginx;

    private CeilingServer(NginxServer nginx) {
        this.nginx = nginx;
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
        Files.writeString(prefix.resolve("conf/ceiling.conf"), config(workers, port, bodyBytes));
        return new CeilingServer(NginxServer.of("ceiling", prefix, "ceiling.conf", port).start());
    }

    public URI uri() {
        return URI.create("http://" + Ports.LOOPBACK + ":" + nginx.port() + "/");
    }

    /** The master's PID; its workers are its children. */
    public long pid() {
        return nginx.pid();
    }

    public Path prefix() {
        return nginx.prefix();
    }

    @Override
    public void close() {
        nginx.close();
    }
}
