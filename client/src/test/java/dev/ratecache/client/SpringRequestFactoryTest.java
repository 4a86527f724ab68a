package dev.ratecache.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ratecache.client.spring.RateCacheRequestFactory;
import dev.ratecache.suite.origin.OriginServer;
import dev.ratecache.suite.stack.SharedOrigin;
import dev.ratecache.suite.stack.Stack;
import dev.ratecache.testkit.StackTest;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.client.HttpClientErrorException;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.RestTemplate;

/**
 * RestClient and RestTemplate through the library (RateCacheRequestFactory), seen at the origin's
 * counters: their requests are cached, counted and labelled as the client's own.
 */
@StackTest
@ExtendWith(SharedOrigin.class)
class SpringRequestFactoryTest {
    private static final Pattern ID = Pattern.compile("\"id\":(\\d+)");
    private static Stack stack;

    @BeforeAll
    static void start(OriginServer origin) throws Exception {
        stack = TestStacks.open(origin);
    }

    private static long reached(String endpoint) throws Exception {
        return stack.origin().counters().requests(endpoint);
    }

    @Test
    void restClientAndRestTemplateShareTheClientsCacheAndStatistics() throws Exception {
        String path = TestStacks.fresh("hare");
        try (RateCacheClient client = RateCacheClient.create()) {
            RateCacheRequestFactory factory = new RateCacheRequestFactory(client);
            RestClient rest = RestClient.builder().requestFactory(factory).baseUrl(stack.frontUri().toString()).build();
            RestTemplate template = new RestTemplate(factory);

            ResponseEntity<String> first = rest.get().uri(path).retrieve().toEntity(String.class);
            ResponseEntity<String> second = rest.get().uri(path).retrieve().toEntity(String.class);
            ResponseEntity<String> third = template.getForEntity(stack.frontUri() + path, String.class);

            assertThat(first.getStatusCode()).isEqualTo(HttpStatus.OK);
            assertThat(first.getHeaders().getFirst(RateCacheRequestFactory.SOURCE_HEADER)).isEqualTo("NETWORK");
            assertThat(RateCacheRequestFactory.sourceOf(second.getHeaders())).isEqualTo(ResponseSource.CACHE);
            assertThat(RateCacheRequestFactory.sourceOf(third.getHeaders())).isEqualTo(ResponseSource.CACHE);
            assertThat(second.getBody()).isEqualTo(first.getBody()).isNotBlank();
            assertThat(third.getBody()).isEqualTo(first.getBody());
            assertThat(first.getHeaders().getCacheControl()).contains("max-age");
            assertThat(reached("hare")).isEqualTo(1);
            ClientStats stats = client.stats();
            assertThat(stats.requestCount()).isEqualTo(3);
            assertThat(stats.networkCount()).isEqualTo(1);
            assertThat(stats.hitCount()).isEqualTo(2);
        }
    }

    @Test
    void aPostsBodyAndHeadersReachTheOriginAndItsAnswerIsNotCached() throws Exception {
        try (RateCacheClient client = RateCacheClient.create()) {
            RestClient rest = RestClient.builder().requestFactory(new RateCacheRequestFactory(client))
                    .baseUrl(stack.frontUri().toString()).build();

            ResponseEntity<String> created = rest.post().uri("/items").contentType(MediaType.APPLICATION_JSON)
                    .body("{\"name\":\"through spring\"}").retrieve().toEntity(String.class);

            assertThat(created.getStatusCode()).isEqualTo(HttpStatus.CREATED);
            assertThat(created.getBody()).contains("\"name\":\"through spring\"");
            assertThat(RateCacheRequestFactory.sourceOf(created.getHeaders())).isEqualTo(ResponseSource.NETWORK);
            Matcher id = ID.matcher(created.getBody());
            assertThat(id.find()).as(created.getBody()).isTrue();

            // The new item, read twice: the second from the cache; renamed with a PUT, whose body goes too.
            String item = "/items/" + id.group(1);
            assertThat(rest.get().uri(item).retrieve().body(String.class)).contains("through spring");
            ResponseEntity<String> again = rest.get().uri(item).retrieve().toEntity(String.class);
            assertThat(RateCacheRequestFactory.sourceOf(again.getHeaders())).isEqualTo(ResponseSource.CACHE);
            ResponseEntity<String> renamed = rest.put().uri(item).contentType(MediaType.APPLICATION_JSON)
                    .body("{\"name\":\"renamed\"}").retrieve().toEntity(String.class);
            assertThat(renamed.getBody()).contains("\"name\":\"renamed\"");
            assertThat(client.stats().networkCount()).isEqualTo(3);
            assertThat(client.stats().hitCount()).isEqualTo(1);
        }
    }

    @Test
    void anErrorStatusReachesSpringAsItsOwnException() throws Exception {
        try (RateCacheClient client = RateCacheClient.create()) {
            RestClient rest = RestClient.builder().requestFactory(new RateCacheRequestFactory(client))
                    .baseUrl(stack.frontUri().toString()).build();

            assertThatThrownBy(() -> rest.get().uri("/items/999999999").retrieve().toBodilessEntity())
                    .isInstanceOfSatisfying(HttpClientErrorException.NotFound.class,
                            e -> assertThat(RateCacheRequestFactory.sourceOf(e.getResponseHeaders()))
                                    .isEqualTo(ResponseSource.NETWORK));
            assertThat(client.stats().requestCount()).isEqualTo(1);
        }
    }
}
