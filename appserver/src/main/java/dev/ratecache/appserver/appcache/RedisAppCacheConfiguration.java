package dev.ratecache.appserver.appcache;

import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ratecache.appserver.accounting.AppCacheCounters;
import dev.ratecache.appserver.config.OriginProperties;
import dev.ratecache.appserver.items.Item;
import dev.ratecache.appserver.items.ItemCatalog;
import dev.ratecache.appserver.places.Place;
import dev.ratecache.appserver.places.PlaceStore;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.TimeoutOptions;
import java.time.Duration;
import java.util.List;
import org.springframework.boot.autoconfigure.data.redis.LettuceClientConfigurationBuilderCustomizer;
import org.springframework.boot.autoconfigure.data.redis.RedisProperties;
import org.springframework.cache.CacheManager;
import org.springframework.cache.annotation.CachingConfigurer;
import org.springframework.cache.annotation.EnableCaching;
import org.springframework.cache.interceptor.CacheErrorHandler;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.cache.RedisCacheConfiguration;
import org.springframework.data.redis.cache.RedisCacheManager;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.serializer.Jackson2JsonRedisSerializer;
import org.springframework.data.redis.serializer.RedisSerializationContext.SerializationPair;

/**
 * {@code origin.app-cache=redis}: Spring's cache abstraction on Redis, for {@link ItemCatalog}'s
 * and {@link PlaceStore}'s cache-aside, each cache with its own serializer and all counted alike. Only then is caching enabled at all; with {@code off} nothing here exists and the
 * origin never opens a Redis connection (Spring Boot's Redis connection factory connects lazily,
 * and its health check is turned off in application.yml).
 *
 * <p>Redis must never hold a request up for long: commands and connects time out after
 * {@code spring.data.redis.timeout} and {@code connect-timeout} (200 ms in application.yml), and
 * while the connection is down commands are refused at once instead of queued for the reconnect.
 */
@Configuration(proxyBeanMethods = false)
@Conditional(AppCacheIsRedis.class)
@EnableCaching
class RedisAppCacheConfiguration {

    @Bean
    CacheManager appCacheManager(RedisConnectionFactory redis, OriginProperties properties, ObjectMapper json,
            AppCacheCounters counters) {
        RedisCacheConfiguration entries = RedisCacheConfiguration.defaultCacheConfig()
                .entryTtl(properties.appCacheTtl())
                .disableCachingNullValues();
        // JSON rather than Java serialisation: readable with redis-cli, and the API's own form.
        JavaType places = json.getTypeFactory().constructCollectionType(List.class, Place.class);
        RedisCacheManager manager = RedisCacheManager.builder(redis)
                .withCacheConfiguration(ItemCatalog.CACHE, entries.serializeValuesWith(
                        SerializationPair.fromSerializer(new Jackson2JsonRedisSerializer<>(json, Item.class))))
                .withCacheConfiguration(PlaceStore.CACHE, entries.serializeValuesWith(
                        SerializationPair.fromSerializer(new Jackson2JsonRedisSerializer<>(json, places))))
                // A cache that no configuration names would store values no serializer here reads.
                .disableCreateOnMissingCache()
                .build();
        manager.initializeCaches();
        return new CountingCacheManager(manager, counters);
    }

    @Bean
    CachingConfigurer appCacheErrors(AppCacheCounters counters) {
        return new CachingConfigurer() {
            @Override
            public CacheErrorHandler errorHandler() {
                return new PassOverCacheErrors(counters);
            }
        };
    }

    @Bean
    RedisWarmUp redisWarmUp(RedisConnectionFactory redis) {
        return new RedisWarmUp(redis);
    }

    @Bean
    LettuceClientConfigurationBuilderCustomizer failFastWhileRedisIsDown(RedisProperties redis) {
        Duration connectTimeout = (redis.getConnectTimeout() != null) ? redis.getConnectTimeout()
                : SocketOptions.DEFAULT_CONNECT_TIMEOUT_DURATION;
        // Replaces the options Spring Boot built from the same properties, adding REJECT_COMMANDS:
        // by default Lettuce queues commands while it reconnects, and each would wait out its timeout.
        return builder -> builder.clientOptions(ClientOptions.builder()
                .socketOptions(SocketOptions.builder().connectTimeout(connectTimeout).build())
                .timeoutOptions(TimeoutOptions.enabled())
                .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
                .build());
    }
}
