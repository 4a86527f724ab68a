package dev.ratecache.testkit;

/**
 * Whether this test JVM runs the long lane too ({@code ./run-tests.sh test --full}): a test that
 * the test command runs in a lighter form (fewer JVMs, the same assertions where they apply) runs
 * whole there. The stack lane's JVMs get {@code ratecache.stack-excluded} from the parent pom.
 */
public final class LongLane {
    private LongLane() {}

    /** True when the stack tests tagged {@link LongTest} are not left out of this run. */
    public static boolean included() {
        return !LongTest.TAG.equals(System.getProperty("ratecache.stack-excluded", LongTest.TAG));
    }
}
