package dev.ratecache.suite.explain;

import static dev.ratecache.suite.explain.Conf.b;
import static dev.ratecache.suite.explain.Conf.d;
import static dev.ratecache.suite.explain.Conf.http;
import static dev.ratecache.suite.explain.Conf.place;
import static dev.ratecache.suite.explain.Conf.spec;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** What a cache does to its upstream when cold and at expiry, from the model's simulation of proxy_cache. */
class CacheFiguresTest {

    private static Optional<CacheFigures> figures(String... directives) {
        Directive[] location = new Directive[directives.length + 2];
        location[0] = d("proxy_cache c");
        location[1] = d("proxy_pass http://app");
        for (int i = 0; i < directives.length; i++) {
            location[i + 2] = d(directives[i]);
        }
        List<Directive> tree = http(d("proxy_cache_path /tmp/c keys_zone=c:10m"), b("server", b("location /", location)));
        return CacheFigures.of(place(spec(tree), "/").cache());
    }

    @Test
    void withoutLockOrStaleEveryRequestOfTheFirstSecondGoesUpstreamColdAndAtExpiry() {
        assertThat(figures("proxy_cache_valid 200 1m")).hasValueSatisfying(f -> {
            assertThat(f.coldUpstream()).isEqualTo(101);
            assertThat(f.expiryUpstream()).isEqualTo(101);
        });
    }

    @Test
    void theLockSendsOneRequestUpstreamWhenColdButNotAtExpiry() {
        assertThat(figures("proxy_cache_valid 200 1m", "proxy_cache_lock on")).hasValueSatisfying(f -> {
            assertThat(f.coldUpstream()).isEqualTo(1);
            assertThat(f.expiryUpstream()).isGreaterThan(1);
        });
    }

    @Test
    void staleWhileUpdatingInTheBackgroundAnswersAtOnceAtExpiryWithOneRefresh() {
        assertThat(figures("proxy_cache_valid 200 1m", "proxy_cache_lock on", "proxy_cache_use_stale updating",
                "proxy_cache_background_update on")).hasValueSatisfying(f -> {
                    assertThat(f.expiryUpstream()).isEqualTo(1);
                    assertThat(f.expirySlowestMs()).isZero();
                });
    }

    @Test
    void noFiguresWithoutALifetimeOrWithMinUses() {
        assertThat(figures()).isEmpty();
        assertThat(figures("proxy_cache_valid 200 1m", "proxy_cache_min_uses 2")).isEmpty();
    }
}
