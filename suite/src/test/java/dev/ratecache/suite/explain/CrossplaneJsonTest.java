package dev.ratecache.suite.explain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** crossplane's JSON as the tree nginx reads: includes spliced in where they stand, each directive with its file and line. */
class CrossplaneJsonTest {
    private static final Path BASE = Path.of("/etc/nginx");

    @Test
    void anIncludedFilesDirectivesStandWhereTheIncludeWasWithTheirOwnFileAndLine() throws Exception {
        String json = """
                {"status":"ok","errors":[],"config":[
                 {"file":"/etc/nginx/nginx.conf","status":"ok","errors":[],"parsed":[
                  {"directive":"http","line":2,"args":[],"block":[
                   {"directive":"include","line":3,"args":["conf.d/*.conf"],"includes":[1]},
                   {"directive":"server_tokens","line":4,"args":["off"]}]}]},
                 {"file":"/etc/nginx/conf.d/a.conf","status":"ok","errors":[],"parsed":[
                  {"directive":"server","line":1,"args":[],"block":[
                   {"directive":"limit_req","line":2,"args":["zone=a"]}]}]}]}
                """;

        List<Directive> tree = Crossplane.fromJson(json, BASE);

        Directive http = tree.get(0);
        assertThat(http.children()).extracting(Directive::name).containsExactly("server", "server_tokens");
        assertThat(http.children().get(0).children().get(0).where()).isEqualTo("conf.d/a.conf:2");
        assertThat(http.where()).isEqualTo("nginx.conf:2");
    }

    @Test
    void crossplanesFirstErrorIsTheOneLineRefusalWithItsFileAndLine() {
        String json = """
                {"status":"failed","errors":[{"file":"/etc/nginx/nginx.conf","line":5,
                 "error":"open() \\"/etc/nginx/missing.conf\\" failed (2: No such file or directory) in /etc/nginx/nginx.conf:5"}],
                 "config":[]}
                """;

        assertThatThrownBy(() -> Crossplane.fromJson(json, BASE)).isInstanceOf(ConfigRefused.class)
                .hasMessageStartingWith("nginx.conf:5: open() \"/etc/nginx/missing.conf\" failed");
    }
}
