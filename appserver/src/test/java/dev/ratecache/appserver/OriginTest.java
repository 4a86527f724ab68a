package dev.ratecache.appserver;

import dev.ratecache.testkit.StackTest;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.springframework.boot.test.autoconfigure.actuate.observability.AutoConfigureObservability;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;

/**
 * The origin with its default configuration on random ports, except that tortoise and snail are
 * made short so the tests stay fast. Test classes that share it share one running context.
 * Metrics export is on because the Prometheus endpoint is part of the contract.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@AutoConfigureObservability(tracing = false)
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT, properties = {
    "management.server.port=0",
    "origin.endpoints.tortoise.delay=300ms",
    "origin.endpoints.snail.delay=400ms"
})
@StackTest
public @interface OriginTest {
}
