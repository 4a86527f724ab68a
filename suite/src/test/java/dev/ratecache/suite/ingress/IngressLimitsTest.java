package dev.ratecache.suite.ingress;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ratecache.accesslog.UserFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class IngressLimitsTest {
    private static final Path SHOP = Path.of("src/test/resources/ingress/shop.yaml");

    @TempDir
    Path dir;

    @Test
    void theAnnotationsAreReadAsTheControllerReadsThem() throws Exception {
        List<IngressLimits> ingresses = IngressLimits.read(SHOP);

        assertThat(ingresses).hasSize(2);
        IngressLimits api = ingresses.get(0);
        assertThat(api.namespace() + "/" + api.name()).isEqualTo("shop/shop-api");
        assertThat(api.rps()).isEqualTo(10);
        assertThat(api.rpm()).isEqualTo(300);
        assertThat(api.connections()).isEqualTo(20);
        assertThat(api.multiplier()).isEqualTo(3);
        assertThat(api.allowlist()).containsExactly("10.0.0.0/8", "192.168.1.7");
        assertThat(api.rules()).extracting(IngressLimits.Route::path).containsExactly("/api/", "/health");
        assertThat(ingresses.get(1).limited()).isFalse();
        assertThat(ingresses.get(1).rules().get(0).port()).isEqualTo("http");
    }

    @Test
    void theBurstIsTheLimitTimesFiveWithNoMultiplier() throws Exception {
        Path one = write("limit-rps: \"4\"");

        String conf = IngressNginxConf.render(IngressLimits.read(one), 503, 503);

        assertThat(IngressLimits.read(one).get(0).multiplier()).isEqualTo(5);
        assertThat(conf).contains("limit_req_zone $limit_default_one zone=default_one_rps:5m rate=4r/s;")
                .contains("limit_req zone=default_one_rps burst=20 nodelay;").doesNotContain("limit_conn ");
    }

    @Test
    void theConfigHasTheConnectionsFirstThenRpsThenRpmAndTheAllowlistUnlimited() throws Exception {
        String conf = IngressNginxConf.render(IngressLimits.read(SHOP), 503, 503);

        assertThat(conf).containsSubsequence("location /api/ {", "limit_conn shop_shop-api_conn 20;",
                "limit_req zone=shop_shop-api_rps burst=30 nodelay;", "limit_req zone=shop_shop-api_rpm burst=900 nodelay;");
        assertThat(conf).containsSubsequence("geo $remote_addr $allowlist_shop_shop_api {", "default 0;",
                "10.0.0.0/8 1;", "192.168.1.7 1;", "map $allowlist_shop_shop_api $limit_shop_shop_api {",
                "0 $binary_remote_addr;", "1 \"\";");
        assertThat(conf).contains("location = /health {", "limit_req_status 503;", "limit_conn_status 503;");
        // Both Ingresses' paths of one host are one server, as the controller merges them.
        assertThat(conf.split("server \\{", -1)).hasSize(2);
        assertThat(conf).contains("location /static/ {").contains("proxy_pass http://shop-cdn-http;");
    }

    @Test
    void aValueTheControllerRefusesIsRefusedInOneLine() throws Exception {
        Path bad = write("limit-rps: \"ten\"");

        assertThatThrownBy(() -> IngressLimits.read(bad)).isInstanceOf(UserFile.Refused.class)
                .hasMessage(bad + ": Ingress default/one: limit-rps must be a whole number, as ingress-nginx reads it"
                        + " (got 'ten')");
    }

    @Test
    void anAllowlistEntryThatIsNoAddressIsRefusedAsTheControllerRefusesIt() throws Exception {
        Path bad = write("limit-allowlist: \"10.0.0.0/8, 300.1.2.3\"");

        assertThatThrownBy(() -> IngressLimits.read(bad)).hasMessage(bad + ": Ingress default/one: limit-allowlist takes"
                + " addresses and CIDRs separated by commas (got '300.1.2.3')");
    }

    @Test
    void aFileWithNoIngressOrNoYamlIsRefusedInOneLine() throws Exception {
        Path service = Files.writeString(dir.resolve("svc.yaml"), "kind: Service\nmetadata:\n  name: a\n");
        Path broken = Files.writeString(dir.resolve("broken.yaml"), "kind: [Ingress\n");

        assertThatThrownBy(() -> IngressLimits.read(service)).hasMessageStartingWith(service
                + " holds no object of kind Ingress");
        assertThatThrownBy(() -> IngressLimits.read(broken)).hasMessageStartingWith(broken + " is not YAML: ")
                .hasMessageNotContaining("\n");
    }

    private Path write(String annotation) throws Exception {
        return Files.writeString(dir.resolve("one.yaml"), String.join("\n", "kind: Ingress", "metadata:", "  name: one",
                "  annotations:", "    nginx.ingress.kubernetes.io/" + annotation, "spec:", "  rules:", "    - http:",
                "        paths:", "          - path: /", "            backend:", "              service:",
                "                name: web", "                port:", "                  number: 80", ""));
    }
}
