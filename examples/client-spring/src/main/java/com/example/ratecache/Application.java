package com.example.ratecache;

import dev.ratecache.client.RateCacheClient;
import dev.ratecache.client.spring.RateCacheRequestFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.CommandLineRunner;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.http.ResponseEntity;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.RestTemplate;

/**
 * Calls an API through RestClient and RestTemplate, both built on one RateCacheClient: they share
 * its cache, its pacing to the server's RateLimit-Policy, its retries and its statistics.
 */
@SpringBootApplication
public class Application {
    public static void main(String[] args) {
        // Exits once the calls are made (the client's background threads would otherwise keep it up).
        System.exit(SpringApplication.exit(SpringApplication.run(Application.class, args)));
    }

    /** One client for the application; Spring closes it on shutdown. */
    @Bean(destroyMethod = "close")
    RateCacheClient rateCacheClient() {
        return RateCacheClient.builder().paceToPolicy(true).build();
    }

    @Bean
    RestClient restClient(RestClient.Builder builder, RateCacheClient client) {
        return builder.requestFactory(new RateCacheRequestFactory(client)).build();
    }

    @Bean
    RestTemplate restTemplate(RateCacheClient client) {
        return new RestTemplate(new RateCacheRequestFactory(client));
    }

    @Bean
    CommandLineRunner calls(RestClient rest, RestTemplate template, RateCacheClient client, @Value("${api.url}") String url) {
        return args -> {
            for (int call = 1; call <= 2; call++) {
                print("RestClient", url, rest.get().uri(url).retrieve().toEntity(String.class));
            }
            print("RestTemplate", url, template.getForEntity(url, String.class));
            System.out.println("stats: " + client.stats());
        };
    }

    private static void print(String via, String url, ResponseEntity<String> r) {
        // Where the answer came from: NETWORK, CACHE, VALIDATED, STALE_WHILE_REVALIDATING, ...
        String source = r.getHeaders().getFirst(RateCacheRequestFactory.SOURCE_HEADER);
        System.out.println(via + " GET " + url + " -> " + r.getStatusCode().value() + " " + source);
    }
}
