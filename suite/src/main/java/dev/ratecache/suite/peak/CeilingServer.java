package dev.ratecache.suite.peak;

import dev.ratecache.proc.Ports;
import dev.ratecache.suite.nginx.NginxRenderer;
import dev.ratecache.suite.nginx.NginxServer;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.stream.Stream;

/**
 * The ceiling a tier is compared with: an nginx that answers every request with {@code return 200}
 * and a fixed body, with the tiers' worker and keep-alive settings and nothing else (no log, no
 * headers, no cache, no limits). Started by PID in its own prefix, like the tiers.
 */
public final class CeilingServer implements AutoCloseable {
    private final NginxServer nginx;
    private final String scheme;

    private CeilingServer(NginxServer nginx, String scheme) {
        this.nginx = nginx;
        this.scheme = scheme;
    }

    /** The config: {@code workers} as the tiers' worker_processes, a body of {@code bodyBytes} bytes. */
    static String config(String workers, int port, int bodyBytes) {
        return config(workers, port, bodyBytes, "", "");
    }

    /**
     * The TLS snippets of the front tier, as its own rendered config includes them (copied from its
     * conf/ folder with the certificate and key they name), so the ceiling's handshakes, ciphers and
     * session cache are the front's.
     */
    static final List<String> TLS_SNIPPETS = List.of("snippets/shared/tls-certificate.conf",
            "snippets/shared/tls-policy.conf", "snippets/shared/tls-session.conf");

    /** The config over TLS: the front's TLS snippets, and HTTP/2 beside HTTP/1.1 when {@code http2}. */
    static String tlsConfig(String workers, int port, int bodyBytes, boolean http2) {
        StringBuilder includes = new StringBuilder();
        for (String snippet : TLS_SNIPPETS) {
            includes.append("    include ").append(snippet).append(";\n");
        }
        return config(workers, port, bodyBytes, http2 ? " ssl http2" : " ssl", includes.toString());
    }

    private static String config(String workers, int port, int bodyBytes, String listenParameters, String includes) {
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
                    listen %s:%d%s;
                %s    location / {
                      default_type application/json;
                      return 200 '%s';
                    }
                  }
                }
                """.formatted(workers, Ports.LOOPBACK, port, listenParameters, includes, "x".repeat(bodyBytes));
    }

    /** Writes the config into {@code prefix}/conf, starts nginx and waits until it answers. */
    public static CeilingServer start(Path prefix, String workers, int port, int bodyBytes) throws IOException {
        Files.createDirectories(prefix.resolve("conf"));
        Files.writeString(prefix.resolve("conf/ceiling.conf"), config(workers, port, bodyBytes));
        return new CeilingServer(NginxServer.of("ceiling", prefix, "ceiling.conf", port).start(), "http");
    }

    /**
     * Like {@link #start}, over TLS: the front's TLS snippets and certificate copied from
     * {@code frontConf}, the front tier's rendered conf/ folder.
     */
    public static CeilingServer startTls(Path prefix, String workers, int port, int bodyBytes, Path frontConf,
            boolean http2) throws IOException {
        Path conf = Files.createDirectories(prefix.resolve("conf"));
        for (String snippet : TLS_SNIPPETS) {
            Files.createDirectories(conf.resolve(snippet).getParent());
            Files.copy(frontConf.resolve(snippet), conf.resolve(snippet), StandardCopyOption.REPLACE_EXISTING);
        }
        Files.createDirectories(conf.resolve(NginxRenderer.TLS_DIR));
        try (Stream<Path> files = Files.list(frontConf.resolve(NginxRenderer.TLS_DIR))) {
            for (Path file : files.toList()) {
                // COPY_ATTRIBUTES keeps the key readable by its owner alone.
                Files.copy(file, conf.resolve(NginxRenderer.TLS_DIR).resolve(file.getFileName()), StandardCopyOption.REPLACE_EXISTING,
                        StandardCopyOption.COPY_ATTRIBUTES);
            }
        }
        Files.writeString(conf.resolve("ceiling.conf"), tlsConfig(workers, port, bodyBytes, http2));
        return new CeilingServer(NginxServer.of("ceiling (TLS)", prefix, "ceiling.conf", port).start(), "https");
    }

    public URI uri() {
        return URI.create(scheme + "://" + Ports.LOOPBACK + ":" + nginx.port() + "/");
    }

    public int port() {
        return nginx.port();
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
