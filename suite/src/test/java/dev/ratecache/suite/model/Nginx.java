package dev.ratecache.suite.model;

import static org.awaitility.Awaitility.await;

import dev.ratecache.proc.Ports;
import dev.ratecache.suite.nginx.NginxServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.math.BigDecimal;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A real nginx with a config of the test's own, run by the suite's own {@link NginxServer} (its own
 * prefix, pid file, logs and temp paths; never /etc/nginx). One worker process, so one event loop
 * and one {@code ngx_current_msec} decides every request, as in the model.
 */
final class Nginx implements AutoCloseable {

    /** The log format every test server writes; $request_time lets us recover the start. */
    static final String LOG_FORMAT = "log_format model '$msec $request_time $remote_addr $limit_req_status "
            + "$status $http_x_id $upstream_cache_status';";

    private final Path prefix;
    private final NginxServer server;

    private Nginx(Path prefix, NginxServer server) {
        this.prefix = prefix;
        this.server = server;
    }

    /** Starts nginx with {@code http} as the body of its http block; {@code port} is its first listener. */
    static Nginx start(Path prefix, String http, int port) throws IOException {
        for (String dir : List.of("conf", "cache")) {
            Files.createDirectories(prefix.resolve(dir));
        }
        boolean root = "root".equals(System.getProperty("user.name"));
        String conf = (root ? "user root;\n" : "")
                + "worker_processes 1;\n"
                + "error_log logs/error.log info;\n"
                + "events { worker_connections 1024; }\n"
                + "http {\n"
                + "  access_log off;\n"
                + "  client_body_temp_path temp/client_body;\n  proxy_temp_path temp/proxy;\n"
                + "  fastcgi_temp_path temp/fastcgi;\n  uwsgi_temp_path temp/uwsgi;\n  scgi_temp_path temp/scgi;\n"
                + "  " + LOG_FORMAT + "\n"
                + http
                + "\n}\n";
        Files.writeString(prefix.resolve("conf/nginx.conf"), conf);
        return new Nginx(prefix, NginxServer.of("model", prefix, "nginx.conf", port).start());
    }

    /** A port no other test of this JVM has. */
    static int freePort() {
        return Ports.free();
    }

    /** Stops this nginx by its PID, with its worker. */
    @Override
    public void close() {
        server.close();
    }

    /** One access log line. */
    record LogLine(long endMs, long requestTimeMs, String remoteAddr, String limitReqStatus, int status,
                   String id, String cacheStatus) {

        /** When nginx created the request: $msec minus $request_time, both from its cached clock. */
        long startMs() {
            return endMs - requestTimeMs;
        }
    }

    /** The file of access log {@code log}, for a test that logs more than {@link LogLine} holds. */
    Path logFile(String log) {
        return prefix.resolve("logs").resolve(log);
    }

    /** Waits until {@code log} has {@code count} lines, then parses them. */
    List<LogLine> awaitLog(String log, int count) {
        Path file = logFile(log);
        await().atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofMillis(50))
                .until(() -> Files.exists(file) && Files.readAllLines(file).size() >= count);
        try {
            List<LogLine> lines = new ArrayList<>();
            for (String line : Files.readAllLines(file)) {
                String[] f = line.split(" ");
                lines.add(new LogLine(new BigDecimal(f[0]).movePointRight(3).longValueExact(),
                        new BigDecimal(f[1]).movePointRight(3).longValueExact(), f[2], f[3],
                        Integer.parseInt(f[4]), f[5], f[6]));
            }
            return lines;
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * One GET over a new connection from {@code source} (any 127.0.0.0/8 address is local on
     * Linux), with an X-Id header that both tiers log; returns the status line's code.
     */
    static int get(String source, int port, String path, String id) throws IOException {
        try (Socket s = new Socket()) {
            s.bind(new InetSocketAddress(InetAddress.getByName(source), 0));
            s.connect(new InetSocketAddress("127.0.0.1", port), 5000);
            s.setSoTimeout(30_000);
            OutputStream out = s.getOutputStream();
            out.write(("GET " + path + " HTTP/1.1\r\nHost: model.test\r\nX-Id: " + id
                    + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = s.getInputStream();
            String response = new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
            return Integer.parseInt(response.substring(9, 12));
        }
    }
}
