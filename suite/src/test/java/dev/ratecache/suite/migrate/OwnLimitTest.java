package dev.ratecache.suite.migrate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ratecache.suite.explain.Directive;
import dev.ratecache.suite.explain.Extractor;
import dev.ratecache.suite.switches.LimitKey;
import dev.ratecache.suite.switches.LimitMode;
import dev.ratecache.suite.switches.StackSwitches;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A user's nginx config's limit, as explain's extractor reads it, in the switches' terms: parsed
 * trees written as crossplane gives them, so that no nginx runs.
 */
class OwnLimitTest {
    private int line;

    private Directive d(String text, Directive... block) {
        List<String> words = new ArrayList<>(Arrays.asList(text.split(" ")));
        String name = words.remove(0);
        return new Directive(name, words, "t.conf", ++line, block.length == 0 && !text.startsWith("server")
                && !text.startsWith("location") ? null : Arrays.asList(block));
    }

    private List<Directive> http(Directive... children) {
        return List.of(new Directive("events", List.of(), "t.conf", ++line, List.of()),
                new Directive("http", List.of(), "t.conf", ++line, Arrays.asList(children)));
    }

    @Test
    void oneLimitReqIsTheSwitchesLimit() throws Exception {
        List<Directive> tree = http(d("limit_req_zone $http_x_api_key zone=api:10m rate=10r/s"),
                d("limit_req_status 429"),
                d("server", d("location /api/", d("limit_req zone=api burst=20 delay=5"), d("proxy_pass http://app"))));
        OwnLimit own = OwnLimit.of(Extractor.extract(tree), "t.conf");
        assertThat(own.rate()).isEqualTo(10);
        assertThat(own.burst()).isEqualTo(20);
        assertThat(own.mode()).isEqualTo(LimitMode.parse("delay=5"));
        assertThat(own.key()).isEqualTo(LimitKey.parse("header:X-Api-Key"));
        assertThat(own.status()).isEqualTo(429);
        // Arguments are built first: the zone line 1, the status 2, the limit_req 3.
        assertThat(own.where()).isEqualTo("limit_req at t.conf:3");
        StackSwitches switches = own.applyTo(new StackSwitches());
        assertThat(switches.frontRate()).isEqualTo(10);
        assertThat(switches.frontMode()).isEqualTo(LimitMode.parse("delay=5"));
        assertThat(switches.problems()).isEmpty();
    }

    @Test
    void aRatePerMinuteThatIsNoWholeRatePerSecondIsRefusedSayingWhatToGive() {
        List<Directive> tree = http(d("limit_req_zone $binary_remote_addr zone=slow:10m rate=30r/m"),
                d("server", d("location /", d("limit_req zone=slow"), d("proxy_pass http://app"))));
        assertThatThrownBy(() -> OwnLimit.of(Extractor.extract(tree), "t.conf")).isInstanceOf(OwnLimit.Unsaid.class)
                .hasMessageContaining("has rate=30r/m, not a whole number of requests a second")
                .hasMessageContaining("--front-rate");
    }

    @Test
    void twoDifferentLimitsAreRefusedNamingBoth() {
        List<Directive> tree = http(d("limit_req_zone $binary_remote_addr zone=a:10m rate=10r/s"),
                d("server", d("location /a/", d("limit_req zone=a burst=5 nodelay"), d("proxy_pass http://app")),
                        d("location /b/", d("limit_req zone=a burst=50"), d("proxy_pass http://app"))));
        assertThatThrownBy(() -> OwnLimit.of(Extractor.extract(tree), "t.conf")).isInstanceOf(OwnLimit.Unsaid.class)
                .hasMessageContaining("applies 2 different limits (10 r/s burst 5 (nodelay) by addr")
                .hasMessageContaining("10 r/s burst 50 (queue) by addr");
    }

    @Test
    void aConfigWithoutALimitHasNothingToMove() {
        List<Directive> tree = http(d("server", d("location /", d("proxy_pass http://app"))));
        assertThatThrownBy(() -> OwnLimit.of(Extractor.extract(tree), "t.conf"))
                .hasMessage("t.conf applies no limit_req anywhere: there is no per-client limit to move");
    }
}
