package dev.ratecache.suite.peak;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ratecache.suite.spec.Quota;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Semaphore;
import org.junit.jupiter.api.Test;

/** peak --quota-keys' keys, the counters' lifetime, the reading of Redis's answers and the table: no process runs. */
class QuotaKeysTest {
    @Test
    void eachClientIsAnAddressOfItsOwnAsTheEdgeKeysByAddress() {
        assertThat(QuotaKeys.key(0)).isEqualTo("ratecache:quota:10.0.0.0");
        assertThat(QuotaKeys.key(1_000_000 - 1)).isEqualTo("ratecache:quota:10.15.66.63");
        assertThat(java.util.stream.LongStream.range(0, 70_000).mapToObj(QuotaKeys::key).distinct()).hasSize(70_000);
    }

    @Test
    void aCounterLivesTwoWindowsWhenSlidingAndOneOtherwiseEachWithASecondMore() {
        // As quota_window.lua's PEXPIREs: 2W + 1000 ms sliding, at most W + 1000 ms fixed or calendar.
        assertThat(QuotaKeys.lifetime(Quota.parse("5/10s", Quota.Window.SLIDING))).isEqualTo(Duration.ofSeconds(21));
        assertThat(QuotaKeys.lifetime(Quota.parse("5/10s", Quota.Window.FIXED))).isEqualTo(Duration.ofSeconds(11));
        assertThat(QuotaKeys.lifetime(Quota.parse("5/m", Quota.Window.CALENDAR))).isEqualTo(Duration.ofSeconds(61));
    }

    @Test
    void theScriptsAnswersAreCountedAndEachMakesRoomForAnother() throws IOException {
        String answers = "*5\r\n:1\r\n:999\r\n:10000\r\n:0\r\n:1795752000000\r\n".repeat(150)
                + "*5\r\n:0\r\n:0\r\n:5000\r\n:5000\r\n:1795752000001\r\n";
        Semaphore room = new Semaphore(0);

        long admitted = QuotaKeys.answers(new ByteArrayInputStream(answers.getBytes(StandardCharsets.US_ASCII)), 151, room);

        assertThat(admitted).isEqualTo(150);
        assertThat(room.availablePermits()).isEqualTo(151);
    }

    @Test
    void anErrorAnswerEndsTheLoadingWithRedissOwnWords() {
        byte[] noScript = "-NOSCRIPT No matching script. Please use EVAL.\r\n".getBytes(StandardCharsets.US_ASCII);
        assertThatThrownBy(() -> QuotaKeys.answers(new ByteArrayInputStream(noScript), 1, new Semaphore(0)))
                .isInstanceOf(IOException.class)
                .hasMessage("answer 1 is not the script's array of integers: -NOSCRIPT No matching script. Please use EVAL.");
        byte[] cut = "*5\r\n:1\r\n".getBytes(StandardCharsets.US_ASCII);
        assertThatThrownBy(() -> QuotaKeys.answers(new ByteArrayInputStream(cut), 1, new Semaphore(0)))
                .hasMessage("redis-server closed the connection while loading");
    }

    @Test
    void theTableSaysTheBytesPerKeyAndWhatWasLeftAfterTheWindow() {
        QuotaKeys.Outcome o = new QuotaKeys.Outcome("Redis 7.0.15", Quota.parse("1000/10s", Quota.Window.SLIDING),
                1_000_000, 1_000_000, Duration.ofSeconds(10), 9.5, new QuotaKeys.Reading(1_000_000, 0, 0),
                new QuotaKeys.Reading(131_000_000, 1_000_000, 1_000_000), Duration.ofSeconds(21), Duration.ofSeconds(22),
                new QuotaKeys.Reading(1_130_000, 0, 0), List.of());

        assertThat(o.bytesPerKey()).isEqualTo(130.0);
        assertThat(o.expired()).isTrue();
        assertThat(o.leftShare()).isEqualTo(0.001);
        String table = QuotaKeys.table(o);
        assertThat(table.lines().filter(l -> l.startsWith("loaded") && l.contains("1,000,000") && l.contains("131,000,000")))
                .hasSize(1);
        assertThat(table).contains("bytes per active key: 130 ", "1,000,000 EVALSHAs in 10.0 s (100,000 a second)",
                "Redis's CPU 9.5 us per EVALSHA", "every key gone 22.0 s after the last was written (each lives 21.0 s"
                        + " at most); used_memory back to 130,000 bytes over the start, 0.1 % of what the keys took");

        QuotaKeys.Outcome stayed = new QuotaKeys.Outcome(o.redisVersion(), o.quota(), o.keys(), o.admitted(), o.loading(),
                o.redisCpu(), o.before(), o.loaded(), o.lifetime(), Duration.ofSeconds(51),
                new QuotaKeys.Reading(60_000_000, 400_000, 400_000), List.of());
        assertThat(stayed.expired()).isFalse();
        assertThat(QuotaKeys.table(stayed)).contains("expiry: 400,000 keys still there 51.0 s after the last was written");
    }
}
