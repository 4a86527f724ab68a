package dev.ratecache.appserver.appcache;

import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisConnectionFactory;

/**
 * Opens the connection to Redis once before the origin takes requests. The first connection loads
 * Lettuce and Netty, which on a busy machine takes longer than the 200 ms a request may wait, so
 * without this the first reads of a run would count as cache errors. A Redis that is not there
 * does not stop the start: reads go to the database until it answers, and the ready line says so.
 */
public class RedisWarmUp implements SmartInitializingSingleton {

    private final RedisConnectionFactory redis;
    private String outcome = "not tried";

    RedisWarmUp(RedisConnectionFactory redis) {
        this.redis = redis;
    }

    @Override
    public void afterSingletonsInstantiated() {
        long start = System.nanoTime();
        try (RedisConnection connection = redis.getConnection()) {
            connection.ping();
            outcome = "answered PING in " + (System.nanoTime() - start) / 1_000_000 + " ms";
        }
        catch (RuntimeException ex) {
            outcome = "not answering (" + ex.getClass().getSimpleName() + ": " + ex.getMessage()
                    + "); reads go to the database until it does";
        }
    }

    /** What the first PING found, for the ready line. */
    public String outcome() {
        return outcome.replaceAll("\\s+", " ");
    }
}
