package dev.ratecache.suite.edge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ratecache.testkit.TestDirs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Traefik 3.7's JSON access log read into the suite's events, from lines as Traefik writes them. */
class TraefikLogTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** A forwarded request, as traefik/front/dynamic.yml's limited router logs it (trimmed of fields the reader ignores). */
    static final String PASSED = "{\"ClientAddr\":\"127.16.0.5:40346\",\"ClientHost\":\"127.16.0.5\",\"DownstreamContentSize\":4,"
            + "\"DownstreamStatus\":200,\"Duration\":102500000,\"OriginContentSize\":4,\"OriginDuration\":101250000,"
            + "\"OriginStatus\":200,\"RequestMethod\":\"GET\",\"RequestPath\":\"/hare?x=1\","
            + "\"RouterName\":\"limited-by-address@file\",\"StartUTC\":\"2026-11-29T18:02:40.876250382Z\","
            + "\"entryPointName\":\"web\",\"level\":\"info\",\"msg\":\"\",\"time\":\"2026-11-29T18:02:40Z\"}";
    /** The RateLimit middleware's own 429: X-Retry-In kept, nothing forwarded. */
    static final String REJECTED = "{\"ClientHost\":\"127.16.0.5\",\"DownstreamContentSize\":17,\"DownstreamStatus\":429,"
            + "\"Duration\":76674,\"OriginDuration\":0,\"OriginStatus\":0,\"RequestMethod\":\"GET\",\"RequestPath\":\"/\","
            + "\"RouterName\":\"limited-by-key@file\",\"StartUTC\":\"2026-11-29T18:02:40.91021234Z\","
            + "\"downstream_X-Retry-In\":\"166.074359ms\",\"entryPointName\":\"web\"}";

    static EdgeEvent event(String line) throws IOException {
        return TraefikLog.event(JSON.readTree(line));
    }

    @Test
    void aForwardedRequestCarriesItsTimesInMillisecondsAndTheOriginsStatus() throws IOException {
        EdgeEvent e = event(PASSED);

        // 18:02:40.876250382 UTC, in epoch ms, floored; its end 102.5 ms later, floored too.
        assertThat(e.arrivalMs()).isEqualTo(1_795_975_360_876L);
        assertThat(e.endMs()).isEqualTo(1_795_975_360_978L);
        assertThat(e.key()).isEqualTo("127.16.0.5");
        assertThat(e.method()).isEqualTo("GET");
        assertThat(e.uri()).isEqualTo("/hare?x=1");
        assertThat(e.status()).isEqualTo(200);
        assertThat(e.bytes()).isEqualTo(4);
        assertThat(e.limit()).isEqualTo(EdgeEvent.Limit.PASSED);
        assertThat(e.cache()).isEqualTo(EdgeEvent.Cache.NONE);
        assertThat(e.upstreamStatus()).isEqualTo("200");
        assertThat(e.upstreamMs()).isEqualTo(101);
        assertThat(e.fleet()).isEmpty();
    }

    @Test
    void theRateLimitsOwn429IsARejectionThatWentNowhere() throws IOException {
        EdgeEvent e = event(REJECTED);

        assertThat(e.status()).isEqualTo(429);
        assertThat(e.limit()).isEqualTo(EdgeEvent.Limit.REJECTED);
        assertThat(e.wentUpstream()).isFalse();
        assertThat(e.upstreamMs()).isZero();
        assertThat(e.endMs() - e.arrivalMs()).isBetween(0L, 1L);
    }

    @Test
    void anOrigins429IsNotTheLimitsAndAnUnlimitedRouterHasNone() throws IOException {
        String originSaid = PASSED.replace("\"DownstreamStatus\":200", "\"DownstreamStatus\":429")
                .replace("\"OriginStatus\":200", "\"OriginStatus\":429");
        assertThat(event(originSaid).limit()).isEqualTo(EdgeEvent.Limit.PASSED);
        assertThat(event(originSaid).upstreamStatus()).isEqualTo("429");
        // The back tier's own rejection, forwarded by the front, carries the back's X-Retry-In.
        String backSaid = originSaid.replace("\"StartUTC\"", "\"downstream_X-Retry-In\":\"80ms\",\"StartUTC\"");
        assertThat(event(backSaid).limit()).isEqualTo(EdgeEvent.Limit.PASSED);
        assertThat(event(PASSED.replace("limited-by-address@file", "unlimited-allowed@file")).limit())
                .isEqualTo(EdgeEvent.Limit.NONE);
        // No router matched: Traefik's own 404 has no RouterName.
        assertThat(event(PASSED.replace("\"RouterName\":\"limited-by-address@file\",", "")).limit())
                .isEqualTo(EdgeEvent.Limit.NONE);
    }

    @Test
    void behindTheFleetsBalancerTheBacksClientIsTheFirstForwardedAddress() throws IOException {
        // The balancer set X-Forwarded-For to the client's address, the edge appended the balancer's.
        EdgeEvent e = event(PASSED.replace("\"ClientHost\":\"127.16.0.5\"", "\"ClientHost\":\"127.16.0.5, 127.0.0.1\""));

        assertThat(e.key()).isEqualTo("127.16.0.5");
    }

    @Test
    void aHeadRequestsBodyIsNone() throws IOException {
        assertThat(event(PASSED.replace("\"GET\"", "\"HEAD\"")).bytes()).isZero();
    }

    @Test
    void aFileReadsEveryObjectLineAndNamesALineItCannotRead() throws IOException {
        Path dir = TestDirs.fresh(getClass(), "log");
        Path log = Files.writeString(dir.resolve("front-access.log"), PASSED + "\n" + REJECTED + "\n");
        assertThat(TraefikLog.read(log)).extracting(EdgeEvent::status).containsExactly(200, 429);

        Path bad = Files.writeString(dir.resolve("bad.log"), PASSED + "\n" + PASSED.replace("2026-11-29T", "yesterday ") + "\n");
        assertThatThrownBy(() -> TraefikLog.read(bad)).isInstanceOf(IOException.class)
                .hasMessageContaining("line 2").hasMessageContaining("StartUTC is not an RFC 3339 time");
    }

    @Test
    void startUtcKeepsItsNanoseconds() {
        assertThat(TraefikLog.startNs("1970-01-01T00:00:01.000000007Z")).isEqualTo(1_000_000_007L);
        assertThat(TraefikLog.startNs("2026-11-29T18:02:40Z") % 1_000_000_000L).isZero();
        assertThat(List.of(TraefikLog.startNs("2026-11-29T18:02:40.5Z"))).containsExactly(1_795_975_360_500_000_000L);
    }
}
