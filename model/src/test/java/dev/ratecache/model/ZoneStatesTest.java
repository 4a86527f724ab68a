package dev.ratecache.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ZoneStatesTest {

    @Test
    void oneMegabyteHoldsAboutEightThousandAddressesAsNginxsDocsSayFor64Bit() {
        // $binary_remote_addr: 4 bytes, a 128-byte state.
        assertThat(ZoneStates.states(1 << 20, 4, "one")).isEqualTo(8095);
        assertThat(ZoneStates.states(10 << 20, 4, "one")).isEqualTo(81375);
    }

    @Test
    void theSmallestZoneHoldsSixPagesOfStatesLessTheTreesOwn() {
        // 7 pages: one for the zone name's log context, six of 32 states, one slot taken by the tree.
        assertThat(ZoneStates.states(32 * 1024, 4, "small")).isEqualTo(191);
    }

    @Test
    void aKeyPast48BytesTakesA256ByteStateAndHalvesTheZone() {
        assertThat(ZoneStates.states(1 << 20, 48, "one")).isEqualTo(8095);
        assertThat(ZoneStates.states(1 << 20, 49, "one")).isEqualTo(4032);
    }

    @Test
    void aZoneNginxWouldRefuseIsRefused() {
        assertThatThrownBy(() -> ZoneStates.states(16 * 1024, 4, "z")).hasMessageContaining("too small");
    }

    @Test
    void aFullZoneForgetsItsLeastRecentlyUsedKeyWhateverItsState() {
        // 1 r/m and no burst: a key seen in the last minute is refused, unless the zone forgot it.
        LimitReq zone = new LimitReq(LimitReqSpec.nodelay(Rate.perMinute(1), 0), 3);
        List<LimitReqStatus> got = new ArrayList<>();
        for (String key : List.of("a", "b", "c", "d", "b", "a")) {
            got.add(zone.decide(key, 1000).status());
        }
        // d pushed a out; b was still held; a came back as a stranger.
        assertThat(got).containsExactly(LimitReqStatus.PASSED, LimitReqStatus.PASSED, LimitReqStatus.PASSED,
                LimitReqStatus.PASSED, LimitReqStatus.REJECTED, LimitReqStatus.PASSED);
        assertThat(zone.forcedRemovals()).isEqualTo(2);
        assertThat(zone.keys()).isEqualTo(3);
    }

    @Test
    void aZoneThatNeverFillsForgetsOnlyIdleDrainedKeys() {
        LimitReq zone = new LimitReq(LimitReqSpec.nodelay(Rate.perMinute(1), 0));
        for (int i = 0; i < 10_000; i++) {
            zone.decide("k" + i, 1000);
        }
        assertThat(zone.decide("k0", 1000).status()).isEqualTo(LimitReqStatus.REJECTED);
        assertThat(zone.forcedRemovals()).isZero();
    }
}
