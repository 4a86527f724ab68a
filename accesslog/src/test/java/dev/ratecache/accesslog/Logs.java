package dev.ratecache.accesslog;

import java.io.IOException;
import java.io.OutputStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.zip.GZIPOutputStream;

/** Test logs: the fixtures in src/test/resources/logs, and combined lines made to order. */
final class Logs {
    private Logs() {}

    static Path fixture(String name) {
        try {
            return Path.of(Logs.class.getResource("/logs/" + name).toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    static String combined(String client, OffsetDateTime time, String method, String uri) {
        return client + " - - [" + LogTimes.LOCAL.format(time) + "] \"" + method + " " + uri
                + " HTTP/1.1\" 200 100 \"-\" \"test\"";
    }

    static Path write(Path file, List<String> lines) throws IOException {
        return Files.write(file, lines, StandardCharsets.UTF_8);
    }

    static Path gzip(Path plain, Path gzipped) throws IOException {
        try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(gzipped))) {
            Files.copy(plain, out);
        }
        return gzipped;
    }

    static ParsedLog read(Path file, LogFormat format) throws AccessLogException {
        return AccessLog.read(file, format, ReadOptions.defaults());
    }
}
