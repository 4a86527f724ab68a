package dev.ratecache.testkit;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Tag;

/**
 * A test class of the stack lane: it starts real processes (nginx, the origin, JMeter, Redis,
 * Chromium) or binds ports. {@code ./mvnw test} runs the unit lane and leaves these out; they run
 * in {@code verify} (Failsafe), and {@code ./run-tests.sh test} runs both. A class without it is a
 * unit test, and {@link UnitLaneGuard} fails it if it starts a process or binds a port anyway.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
@Tag(StackTest.TAG)
public @interface StackTest {
    /** The JUnit tag the lanes select on (surefire's excludedGroups, failsafe's groups). */
    String TAG = "stack";
}
