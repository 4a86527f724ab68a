package dev.ratecache.suite.edge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.ratecache.suite.Http;
import dev.ratecache.suite.origin.OriginServer;
import dev.ratecache.suite.stack.Stacks;
import java.time.Duration;

/**
 * What the behaviour interfaces (EdgeFreshness, EdgeInvalidation, EdgeStale, EdgeCoalescing,
 * EdgePurge) ask of the class that runs them: an edge's stack and the origin behind it. Each
 * request comes from a loopback address no other request of the class used, so that no test
 * meets the front's per-client limit, however many requests it polls.
 */
interface EdgeStack {
    /**
     * One request with {@code method} and no body through the front, from {@code source};
     * {@code headers} are whole header lines.
     */
    Http.Raw sendFrom(String source, String method, String url, String... headers);

    /** A loopback address no request of the class has come from yet. */
    String nextAddress();

    OriginServer origin();

    /** One request with {@code method} and no body through the front, from an address of its own. */
    default Http.Raw send(String method, String url, String... headers) {
        return sendFrom(nextAddress(), method, url, headers);
    }

    /** One GET through the front, from an address of its own. */
    default Http.Raw get(String url, String... headers) {
        return send("GET", url, headers);
    }

    default long reached(String endpoint) throws Exception {
        return origin().counters().requests(endpoint);
    }

    static String cacheStatus(Http.Raw answer) {
        return answer.header("X-Cache-Status");
    }

    /** Asks for {@code url} until the cache stops answering HIT (see {@link Stacks#firstAnswerNotAHit}). */
    default Http.Raw firstAnswerNotAHit(String url) {
        return Stacks.firstAnswerNotAHit(() -> get(url), EdgeStack::cacheStatus);
    }

    /**
     * A new URL of {@code endpoint} that the edge holds, and the body it holds for it: a MISS,
     * then a HIT, with a new URL each try. HAProxy counts freshness in whole seconds of its clock,
     * so an entry with max-age=1 stored late in a second is fresh for a few milliseconds, and a
     * busy machine may take a second between two requests.
     */
    default Stacks.Stored stored(String endpoint) {
        for (int attempt = 1; attempt <= 5; attempt++) {
            String url = Stacks.fresh(endpoint);
            get(url);
            Http.Raw again = get(url);
            if ("HIT".equals(cacheStatus(again))) {
                return new Stacks.Stored(url, again.body());
            }
        }
        throw new AssertionError("the edge stored no answer of /" + endpoint + " in 5 tries");
    }

    /**
     * Asks for {@code url} until the Age the edge sends with it reaches {@code seconds}, failing
     * at once if an answer is not a HIT: the entry was still served from the cache at that age.
     * Polling is harmless: a HIT changes neither the entry nor the origin's counters.
     */
    default Http.Raw stillAHitAfter(String url, int seconds) {
        return await("a HIT " + seconds + " s old").atMost(Duration.ofSeconds(seconds + 10L))
                .pollInterval(Duration.ofMillis(250))
                .until(() -> get(url), answer -> {
                    assertThat(cacheStatus(answer)).as("the answer for %s", url).isEqualTo("HIT");
                    return Integer.parseInt(answer.header("Age")) >= seconds;
                });
    }
}
