package dev.ratecache.suite.edge;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.suite.Repo;
import java.io.IOException;
import org.junit.jupiter.api.Test;

/** Varnish's bare form, which peak --edge varnish sets beside the full edge: its VCL, rendered here, no process runs. */
class VarnishBareTest {
    @Test
    void theBareVclIsTheBuiltInWithABackendOnTheBackTierAndATtlCap() throws IOException {
        String vcl = VarnishBare.vcl(Repo.varnishTemplates(), 18081);
        assertThat(vcl).contains("vcl 4.1;", ".port = \"18081\";", "set beresp.ttl = 1d;").doesNotContain("{{");
        // Nothing that the full front adds: no limit, no purge, no status header, no grace rule, no vcl_recv.
        String code = vcl.lines().filter(l -> !l.startsWith("#")).collect(java.util.stream.Collectors.joining("\n"));
        assertThat(code).doesNotContain("vsthrottle", "purge", "X-Cache-Status", "grace", "sub vcl_recv");
    }
}
