package dev.ratecache.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.message.BasicHeader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Reading the RateLimit field (draft-ietf-httpapi-ratelimit-headers-11), hostile values included. */
class RateLimitStatusTest {

    private static List<RateLimitStatus> parse(String... values) {
        return RateLimitStatus.parse(List.of(values));
    }

    private static RateLimitStatus status(String policy, long r, long t) {
        return new RateLimitStatus(policy, r, Duration.ofSeconds(t));
    }

    @Test
    void quotaItemAsTheEdgeSendsIt() {
        assertThat(parse("\"daily\";r=998;t=86399")).containsExactly(status("daily", 998, 86399));
    }

    @Test
    void listAndSeveralHeaderLinesAreOneListInOrder() {
        assertThat(parse("\"anonymous\";r=0;t=1, \"daily\";r=5;t=30", "\"hourly\";r=7;t=100"))
                .containsExactly(status("anonymous", 0, 1), status("daily", 5, 30), status("hourly", 7, 100));
    }

    @Test
    void tokenNamesUnknownParametersAndSpacesAreRead() {
        assertThat(parse("  daily;pk=:cHJvamVjdA==:;r=3;x=\"a;b,c\";t=9;y=1.5 ,\tfree ; r=1"))
                .containsExactly(status("daily", 3, 9), new RateLimitStatus("free", 1, null));
    }

    @Test
    void quotedNameMayHoldCommasSemicolonsAndEscapes() {
        assertThat(parse("\"a,b;c \\\"q\\\" \\\\\";r=1;t=2")).containsExactly(status("a,b;c \"q\" \\", 1, 2));
    }

    @Test
    void resetIsOptional() {
        assertThat(parse("\"daily\";r=4")).containsExactly(new RateLimitStatus("daily", 4, null));
        assertThat(parse("\"daily\";r=4;t=-3")).containsExactly(new RateLimitStatus("daily", 4, null));
        assertThat(parse("\"daily\";r=4;t=2.5")).containsExactly(new RateLimitStatus("daily", 4, null));
    }

    @Test
    void laterParameterOfTheSameKeyWins() {
        assertThat(parse("\"d\";r=1;t=5;r=2")).containsExactly(status("d", 2, 5));
        // A bad repeat leaves no remaining count at all rather than the earlier one.
        assertThat(parse("\"d\";r=1;t=5;r=x")).isEmpty();
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @ValueSource(strings = {
        "", " ", ",", ",,,", "\"daily\"", "\"daily\";t=5", "\"daily\";r=-1;t=5", "\"daily\";r=1.0;t=5",
        "\"daily\";r=9999999999999999;t=5", "\"daily\";r=;t=5", "\"daily\";r=\"5\";t=5", "\"daily\";r=?1;t=5",
        "\"daily;r=1;t=5", "\"dai\\ly\";r=1;t=5", "\"dai\u00e9ly\";r=1;t=5", "\"d\u0001\";r=1;t=5", "(\"a\" \"b\");r=1;t=5",
        "5;r=1;t=5", "-;r=1;t=5", "\"daily\" junk;r=1;t=5", "\"daily\";=1;t=5", "\"daily\";;r=1", "\"daily\";r=1 t=5",
        "\"daily\";R", "\"daily\";r=1;t=5\"", "\\", "\"", ";;;;", "=,=,="
    })
    void hostileValuesGiveNothingAndNeverThrow(String value) {
        assertThat(parse(value)).isEmpty();
    }

    @Test
    void badMemberDoesNotTakeItsNeighboursWithIt() {
        assertThat(parse("\"bad\";r=-1;t=5, (inner);r=1, \"broken\\x;r=1, \"good\";r=2;t=3"))
                .containsExactly(status("good", 2, 3));
    }

    @Test
    void extremeValuesStayInRange() {
        assertThat(parse("\"d\";r=999999999999999;t=999999999999999"))
                .containsExactly(status("d", 999_999_999_999_999L, 999_999_999_999_999L));
        assertThat(parse("\"d\";r=0;t=0")).containsExactly(status("d", 0, 0));
    }

    @Test
    void hugeValueIsReadOnlyUpToItsBoundAndQuickly() {
        String huge = "\"d\";r=1;t=1, ".repeat(100_000) + "\"late\";r=1;t=1";
        List<RateLimitStatus> statuses = parse(huge);
        assertThat(statuses).hasSizeLessThan(StructuredList.MAX_LENGTH / 10).allMatch(s -> s.policy().equals("d"));
        assertThat(parse("\"" + "x".repeat(1_000_000))).isEmpty();
    }

    @Test
    void responseSaysWhatItsHeadersSaid() {
        RateCacheResponse r = new RateCacheResponse(200, "OK", new Header[] {
            new BasicHeader("RateLimit-Policy", "\"anonymous\";q=100;w=1;ratecache-burst=200, \"daily\";q=1000;w=86400"),
            new BasicHeader("ratelimit", "\"daily\";r=999;t=86000"),
            new BasicHeader("RateLimit", "\"anonymous\";r=0;t=1")}, new byte[0], null, ResponseSource.NETWORK, 1, 0, 0, 0);

        assertThat(r.rateLimits()).containsExactly(status("daily", 999, 86000), status("anonymous", 0, 1));
        assertThat(r.rateLimit("daily")).isEqualTo(status("daily", 999, 86000));
        assertThat(r.rateLimit("hourly")).isNull();
        assertThat(r.isQuotaExceeded()).isFalse();
        assertThat(r.violatedPolicies()).isNull();
    }
}
