package dev.ratecache.testkit;

import java.security.Permission;
import org.junit.platform.launcher.LauncherSession;
import org.junit.platform.launcher.LauncherSessionListener;

/**
 * Keeps the unit lane what it promises: no process started, no port bound. Surefire sets
 * {@code ratecache.lane=unit} (the parent pom); in that JVM this listener installs a security
 * manager that allows everything but {@code exec} and {@code listen}, so a test that starts a
 * process or binds a port, even through a helper, fails at once, naming the fix. The stack lane
 * (Failsafe) leaves the property unset and is not guarded.
 *
 * <p>A security manager is the one hook the JDK gives for every process start and every bind,
 * whichever library makes them. It is deprecated for removal (JEP 411) but works on Java 17 with
 * {@code -Djava.security.manager=allow}; where a later JDK refuses it, the lane runs unguarded and
 * says so once.
 */
public final class UnitLaneGuard implements LauncherSessionListener {
    static final String LANE = "ratecache.lane";

    @Override
    public void launcherSessionOpened(LauncherSession session) {
        if (!"unit".equals(System.getProperty(LANE)) || System.getSecurityManager() instanceof Guard) {
            return;
        }
        try {
            System.setSecurityManager(new Guard());
        } catch (UnsupportedOperationException refused) {
            System.err.println("unit lane: this JDK refuses a security manager, so nothing checks that unit tests"
                    + " start no process and bind no port");
        }
    }

    /** Refuses exec and listen; everything else is allowed and costs nothing. */
    static final class Guard extends SecurityManager {
        private static final String FIX = ": the unit lane starts no process and binds no port;"
                + " if this test needs real processes or ports, mark its class @StackTest";

        @Override
        public void checkExec(String cmd) {
            throw new SecurityException("started " + cmd + FIX);
        }

        @Override
        public void checkListen(int port) {
            throw new SecurityException("bound port " + port + FIX);
        }

        @Override
        public void checkPermission(Permission perm) {
            // Allowed: only exec and listen are the lane's business.
        }

        @Override
        public void checkPermission(Permission perm, Object context) {
            // Allowed, as above.
        }
    }
}
