package dev.ratecache.suite.stack;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.suite.Http;
import java.net.http.HttpResponse;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The security headers every tier adds to every response (nginx/snippets/shared/security-headers.conf),
 * and the check that each came exactly once: a copy added twice (a second add_header, or one in
 * a location as well as the server) is a fault, and one value of two would hide it.
 */
final class SecurityHeaders {
    private SecurityHeaders() {}

    private static final Map<String, String> EXPECTED = new LinkedHashMap<>();

    static {
        EXPECTED.put("X-Content-Type-Options", "nosniff");
        EXPECTED.put("X-Frame-Options", "DENY");
        EXPECTED.put("Content-Security-Policy", "frame-ancestors 'none'");
        EXPECTED.put("Referrer-Policy", "no-referrer");
    }

    static void assertEachOnce(Http.Raw response) {
        assertEachOnce(response::allValues);
    }

    static void assertEachOnce(HttpResponse<?> response) {
        assertEachOnce(name -> response.headers().allValues(name));
    }

    private static void assertEachOnce(Function<String, List<String>> allValues) {
        EXPECTED.forEach((name, value) -> assertThat(allValues.apply(name)).as(name).containsExactly(value));
    }
}
