package dev.ratecache.testkit;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Tag;

/**
 * A stack class or test of the long lane: it runs a whole matrix, a replay, a benchmark or a
 * variant of a run the test command already makes, minutes of origin starts and JMeter runs on two
 * cores. {@code ./run-tests.sh test} leaves it out, to finish within its 10 minutes;
 * {@code ./run-tests.sh test --full} runs it with the rest. docs/testing.md lists what only the long
 * lane checks. It goes beside {@link StackTest}, never instead of it: the unit lane must not run it.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE, ElementType.METHOD})
@Tag(LongTest.TAG)
public @interface LongTest {
    /** The JUnit tag the test command leaves out (failsafe's excludedGroups, {@code stack.excluded}). */
    String TAG = "long";
}
