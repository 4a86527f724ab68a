package dev.ratecache.testkit;

import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.net.InetAddress;
import java.net.ServerSocket;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The unit lane refuses what would make a unit test a stack test, naming the fix. */
class UnitLaneGuardTest {

    @BeforeEach
    void inTheUnitLane() {
        assumeTrue("unit".equals(System.getProperty(UnitLaneGuard.LANE)), "not run by surefire's unit lane");
    }

    @Test
    void startingAProcessFailsNamingTheTag() {
        assertThatThrownBy(() -> new ProcessBuilder("true").start())
                .isInstanceOf(SecurityException.class)
                .hasMessageContaining("started true")
                .hasMessageContaining("@StackTest");
    }

    @Test
    void bindingAPortFailsNamingTheTag() {
        assertThatThrownBy(() -> new ServerSocket(0, 1, InetAddress.getLoopbackAddress()).close())
                .isInstanceOf(SecurityException.class)
                .hasMessageContaining("bound port 0")
                .hasMessageContaining("@StackTest");
    }
}
