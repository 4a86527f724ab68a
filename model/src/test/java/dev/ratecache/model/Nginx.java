package dev.ratecache.model;

import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.math.BigDecimal;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A real nginx (Debian's /usr/sbin/nginx) run as a child process with its own prefix, pid file,
 * logs and temp paths under a test directory; it never reads /etc/nginx. One worker process, so
 * one event loop and one {@code ngx_current_msec} decides every request, as in the model.
 */
final class Nginx implements AutoCloseable {

    static final Path BINARY = Path.of("/usr/sbin/nginx");

    /** The log format every test server writes; $request_time lets us recover the start. */
    static final String LOG_FORMAT = "log_format model '$msec $request_time $remote_addr $limit_req_status "
            + "$status $http_x_id $upstream_cache_status';";

    private final Path prefix;
    private final Process process;

    private Nginx(Path prefix, Process process) {
        this.prefix = prefix;
        this.process = process;
    }

    /** Starts nginx with {@code http} as the body of its http block and waits for {@code ports}. */
    static Nginx start(Path prefix, String http, int... ports) throws IOException {
        for (String dir : List.of("conf", "logs", "temp", "cache")) {
            Files.createDirectories(prefix.resolve(dir));
        }
        boolean root = "root".equals(System.getProperty("user.name"));
        String conf = (root ? "user root;\n" : "")
                + "worker_processes 1;\n"
                + "events { worker_connections 1024; }\n"
                + "http {\n"
                + "  access_log off;\n"
                + "  client_body_temp_path temp/client_body;\n  proxy_temp_path temp/proxy;\n"
                + "  fastcgi_temp_path temp/fastcgi;\n  uwsgi_temp_path temp/uwsgi;\n  scgi_temp_path temp/scgi;\n"
                + "  " + LOG_FORMAT + "\n"
                + http
                + "\n}\n";
        Files.writeString(prefix.resolve("conf/nginx.conf"), conf);
        Process p = new ProcessBuilder(BINARY.toString(), "-p", prefix + "/", "-c", "conf/nginx.conf",
                "-e", prefix.resolve("logs/error.log").toString(),
                "-g", "daemon off; pid " + prefix.resolve("logs/nginx.pid") + "; error_log "
                        + prefix.resolve("logs/error.log") + " info;")
                .redirectErrorStream(true)
                .redirectOutput(prefix.resolve("logs/stdout.log").toFile())
                .start();
        Nginx nginx = new Nginx(prefix, p);
        try {
            await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(20)).until(() -> {
                if (!p.isAlive()) {
                    throw new IllegalStateException("nginx exited: "
                            + Files.readString(prefix.resolve("logs/stdout.log")));
                }
                for (int port : ports) {
                    try (Socket s = new Socket()) {
                        s.connect(new InetSocketAddress("127.0.0.1", port), 200);
                    } catch (IOException e) {
                        return false;
                    }
                }
                return true;
            });
        } catch (RuntimeException e) {
            nginx.close();
            throw e;
        }
        return nginx;
    }

    /** A port that was free a moment ago. */
    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            return s.getLocalPort();
        }
    }

    /** Stops this nginx (its own process only) and waits for it. */
    @Override
    public void close() {
        // Only the child we started: SIGTERM to its pid, then SIGKILL if it lingers.
        process.destroy();
        try {
            if (!process.waitFor(10, java.util.concurrent.TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, java.util.concurrent.TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** One access log line. */
    record LogLine(long endMs, long requestTimeMs, String remoteAddr, String limitReqStatus, int status,
                   String id, String cacheStatus) {

        /** When nginx created the request: $msec minus $request_time, both from its cached clock. */
        long startMs() {
            return endMs - requestTimeMs;
        }
    }

    /** Waits until {@code log} has {@code count} lines, then parses them. */
    List<LogLine> awaitLog(String log, int count) {
        Path file = prefix.resolve("logs").resolve(log);
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(50))
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
