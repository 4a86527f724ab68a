package com.example.ratecache;

import dev.ratecache.client.RateCacheClient;
import dev.ratecache.client.RateCacheResponse;
import java.io.IOException;

/** GETs one URL twice through the client library: once from the network, then from its cache. */
public final class Main {
    public static void main(String[] args) throws IOException {
        String url = args.length > 0 ? args[0] : "http://127.0.0.1:8000/hare";
        try (RateCacheClient client = RateCacheClient.builder()
                .paceToPolicy(true)           // keep to the server's RateLimit-Policy instead of meeting 429s
                .build()) {
            for (int call = 1; call <= 2; call++) {
                RateCacheResponse r = client.get(url);
                System.out.println("GET " + url + " -> " + r.code() + " " + r.source());
            }
            System.out.println("stats: " + client.stats());
        }
    }
}
