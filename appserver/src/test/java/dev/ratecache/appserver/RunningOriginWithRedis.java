package dev.ratecache.appserver;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * A running origin with a real redis-server of its own beside it (its own port and folder,
 * stopped by PID after the class), for the app cache's tests. Skipped, saying why, where Debian's
 * redis-server is not installed.
 */
abstract class RunningOriginWithRedis extends RunningOrigin {

    @TempDir
    static Path redisDir;

    static RedisServer redis;

    @BeforeAll
    static void startRedis() {
        assumeTrue(RedisServer.binary().isPresent(), RedisServer.notInstalled());
        redis = RedisServer.start(redisDir);
    }

    @AfterAll
    static void stopRedis() {
        if (redis != null) {
            redis.close();
        }
    }

    @DynamicPropertySource
    static void redisPort(DynamicPropertyRegistry registry) {
        registry.add("spring.data.redis.port", () -> redis.port());
    }
}
