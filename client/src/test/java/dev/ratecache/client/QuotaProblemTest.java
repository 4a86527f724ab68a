package dev.ratecache.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Recognising an exhausted quota's 429 (RFC 9457 problem of the RateLimit draft's quota-exceeded type). */
class QuotaProblemTest {
    static final String BODY = "{\"type\":\"https://iana.org/assignments/http-problem-types#quota-exceeded\","
            + "\"title\":\"Request cannot be satisfied as assigned quota has been exceeded\",\"status\":429,"
            + "\"violated-policies\":[\"daily\"]}";

    private static List<String> violated(int status, String type, String body) {
        return QuotaProblem.violatedPolicies(status, type, body.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void theEdgesBodyNamesItsPolicy() {
        assertThat(violated(429, "application/problem+json", BODY)).containsExactly("daily");
        assertThat(violated(429, "Application/Problem+JSON; charset=utf-8", BODY)).containsExactly("daily");
    }

    @Test
    void membersInAnyOrderWithOthersNestedAndEscapesRead() {
        String body = " {\n \"ext\": {\"a\": [1, 2.5e3, true, null, {\"b\": []}], \"c\": {}},"
                + " \"violated-policies\": [\"hourly\", 7, \"da\\u0069ly\", {\"x\": 1}],"
                + " \"type\": \"https:\\/\\/iana.org\\/assignments\\/http-problem-types#quota-exceeded\" } ";
        assertThat(violated(429, "application/problem+json", body)).containsExactly("hourly", "daily");
    }

    @Test
    void aProblemWithoutPoliciesIsStillAQuotaRejection() {
        assertThat(violated(429, "application/problem+json", "{\"type\":\"" + QuotaProblem.TYPE + "\"}")).isEmpty();
        assertThat(violated(429, "application/problem+json",
                "{\"type\":\"" + QuotaProblem.TYPE + "\",\"violated-policies\":\"daily\"}")).isEmpty();
    }

    @Test
    void otherStatusesTypesAndMediaTypesAreNot() {
        assertThat(violated(503, "application/problem+json", BODY)).isNull();
        assertThat(violated(429, "application/json", BODY)).isNull();
        assertThat(violated(429, null, BODY)).isNull();
        assertThat(violated(429, "application/problem+json", BODY.replace("quota-exceeded", "too-fast"))).isNull();
        assertThat(QuotaProblem.violatedPolicies(429, "application/problem+json", null)).isNull();
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @ValueSource(strings = {
        "", "null", "[]", "\"x\"", "{", "{\"type\"", "{\"type\":}", "{\"type\":\"x\",}", "{,}",
        "{\"type\":\"https://iana.org/assignments/http-problem-types#quota-exceeded\"} trailing",
        "{\"type\":\"https://iana.org/assignments/http-problem-types#quota-exceeded\",\"violated-policies\":[\"a\",]}",
        "{\"type\":\"https://iana.org/assignments/http-problem-types#quota-exceeded\",\"x\":\"\\q\"}",
        "{\"type\":\"https://iana.org/assignments/http-problem-types#quota-exceeded\",\"x\":\"\\u12\"}",
        "{\"type\":\"https://iana.org/assignments/http-problem-types#quota-exceeded\",\"x\":\"a\nb\"}",
        "{\"type\":\"https://iana.org/assignments/http-problem-types#quota-exceeded\",\"x\":@}",
        "{\"type\":\"https://iana.org/assignments/http-problem-types#quota-exceeded\" \"x\":1}",
        "{\"violated-policies\":[\"daily\"]}"
    })
    void malformedOrForeignBodiesAreNotAndNeverThrow(String body) {
        assertThat(violated(429, "application/problem+json", body)).isNull();
    }

    @Test
    void gzippedProblemIsReadAsTheCallerWillSeeIt() throws Exception {
        java.io.ByteArrayOutputStream zipped = new java.io.ByteArrayOutputStream();
        try (java.util.zip.GZIPOutputStream gz = new java.util.zip.GZIPOutputStream(zipped)) {
            gz.write(BODY.getBytes(StandardCharsets.UTF_8));
        }
        byte[] body = NetworkExec.decoded(zipped.toByteArray(), "gzip");
        assertThat(QuotaProblem.violatedPolicies(429, "application/problem+json", body)).containsExactly("daily");
        assertThat(NetworkExec.decoded(BODY.getBytes(StandardCharsets.UTF_8), null)).isEqualTo(BODY.getBytes(StandardCharsets.UTF_8));
        assertThat(NetworkExec.decoded(new byte[] {1, 2, 3}, "gzip")).isNull();
        assertThat(NetworkExec.decoded(zipped.toByteArray(), "br")).isNull();
        // A gzip bomb is cut off at the size a problem may have.
        java.io.ByteArrayOutputStream bomb = new java.io.ByteArrayOutputStream();
        try (java.util.zip.GZIPOutputStream gz = new java.util.zip.GZIPOutputStream(bomb)) {
            gz.write(new byte[10 * 1024 * 1024]);
        }
        assertThat(NetworkExec.decoded(bomb.toByteArray(), "gzip")).isNull();
    }

    @Test
    void deepNestingAndHugeBodiesAreRefusedWithoutStackOverflow() {
        String deep = "{\"type\":\"" + QuotaProblem.TYPE + "\",\"x\":" + "[".repeat(100_000) + "]".repeat(100_000) + "}";
        assertThat(violated(429, "application/problem+json", deep)).isNull();
        String nested = "{\"type\":\"" + QuotaProblem.TYPE + "\",\"x\":" + "[".repeat(20) + "]".repeat(20) + "}";
        assertThat(violated(429, "application/problem+json", nested)).isEmpty();
        String big = "{\"type\":\"" + QuotaProblem.TYPE + "\",\"x\":\"" + "a".repeat(QuotaProblem.MAX_BODY) + "\"}";
        assertThat(violated(429, "application/problem+json", big)).isNull();
    }
}
