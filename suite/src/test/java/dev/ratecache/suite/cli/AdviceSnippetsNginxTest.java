package dev.ratecache.suite.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.suite.nginx.NginxServer;
import dev.ratecache.testkit.StackTest;
import dev.ratecache.testkit.TestDirs;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The lifetimes advise writes for a log's paths are a config nginx takes, whatever the paths hold:
 * {@code nginx -t} on edge-lifetimes.conf, included in a server as its comment says.
 */
@StackTest
class AdviceSnippetsNginxTest {
    private final CommandRun cli = new CommandRun();

    @Test
    void edgeLifetimesForPathsOfControlCharactersAndConfigSyntaxPassNginxT() throws Exception {
        Path dir = TestDirs.fresh(getClass(), "hostile");
        Path log = Files.write(dir.resolve("hostile.jsonl"), AdviseCommandTest.hostileLog());
        assertThat(cli.run("advise", log.toString(), "--results", dir.resolve("results").toString())).as(cli.err()).isZero();
        Path lifetimes = AdviseCommandTest.adviceFolder(cli.out()).resolve("nginx/edge-lifetimes.conf");
        assertThat(lifetimes).content().contains("location = \"/semi;colon{brace}");

        Path prefix = dir.resolve("nginx");
        Files.createDirectories(prefix.resolve("conf"));
        Path conf = Files.writeString(prefix.resolve("conf/nginx.conf"),
                ("root".equals(System.getProperty("user.name")) ? "user root;\n" : "")
                        + "events { worker_connections 64; }\n"
                        + "http {\n"
                        + "  access_log off;\n"
                        + "  client_body_temp_path temp/client_body;\n  proxy_temp_path temp/proxy;\n"
                        + "  fastcgi_temp_path temp/fastcgi;\n  uwsgi_temp_path temp/uwsgi;\n  scgi_temp_path temp/scgi;\n"
                        + "  upstream back_end { server 127.0.0.1:9; }\n"
                        + "  server {\n    listen 127.0.0.1:9;\n    include \"" + lifetimes.toAbsolutePath() + "\";\n  }\n"
                        + "}\n");

        // Throws with nginx's own words when it refuses the file; nginx -t binds no port.
        NginxServer.of("advised", prefix, "nginx.conf", 9).check(conf);
    }
}
