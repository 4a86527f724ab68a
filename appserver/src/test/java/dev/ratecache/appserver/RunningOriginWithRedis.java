package dev.ratecache.appserver;

import dev.ratecache.proc.RedisServer;
import dev.ratecache.testkit.Required;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * A running origin with a real redis-server of its own beside it (its own port and folder,
 * stopped by PID after the class), for the app cache's tests. Skipped, saying why, where Debian's
 * redis-server is not installed (failed under CI, where it must be).
 */
abstract class RunningOriginWithRedis extends RunningOrigin {

    @TempDir
    static Path redisDir;

    static RedisServer redis;

    @BeforeAll
    static void startRedis() throws IOException {
        Required.that(RedisServer.notInstalled().isEmpty(), RedisServer.notInstalled().orElse(""));
        redis = RedisServer.start(redisDir, 0);
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
