package dev.ratecache.suite.matrix;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.suite.edge.NginxLog;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OriginWindowsTest {
    @TempDir
    Path dir;

    /** A back end log line: logged at {@code endMs}, the origin having taken {@code upstreamSeconds}. */
    private static String line(long endMs, String upstreamStatus, String upstreamTime) {
        return String.format(java.util.Locale.ROOT, "{\"time\":\"2026-11-23T00:00:00+00:00\",\"msec\":%d.%03d,"
                + "\"uri\":\"/hare\",\"status\":200,\"upstream_status\":\"%s\",\"upstream_time\":\"%s\"}",
                endMs / 1000, endMs % 1000, upstreamStatus, upstreamTime);
    }

    @Test
    void anArrivalIsTheLinesEndLessTheOriginsTimeAndRejectionsNeverArrive() throws Exception {
        Path log = Files.write(dir.resolve("access.log"), List.of(
                line(10_500, "200", "0.100"),
                line(10_600, "", ""),
                line(11_000, "502, 200", "0.100, 0.200")));

        assertThat(OriginWindows.of(NginxLog.events(log)).arrivalsMs()).containsExactly(10_400L, 10_700L);
    }

    @Test
    void thePeakIsTheBusiestSlidingSecondEvenAcrossTwoClockSeconds() throws Exception {
        List<String> lines = new ArrayList<>();
        // 6 arrivals late in second 10 and 6 early in second 11: no clock second holds more than 6,
        // but the window from 10.600 holds all 12.
        for (int i = 0; i < 6; i++) {
            lines.add(line(10_600 + i * 50, "200", "0.000"));
            lines.add(line(11_100 + i * 50, "200", "0.000"));
        }
        lines.add(line(13_000, "200", "0.000"));
        Path log = Files.write(dir.resolve("access.log"), lines);

        OriginWindows windows = OriginWindows.of(NginxLog.events(log));

        assertThat(windows.peak()).isEqualTo(new OriginWindows.Peak(12, 10_600));
        assertThat(windows.perSecond()).containsEntry(10L, 6).containsEntry(11L, 6).containsEntry(13L, 1);
    }

    @Test
    void aShorterWindowLeavesOutAnArrivalAMillisecondShortOfASecondLater() throws Exception {
        Path log = Files.write(dir.resolve("access.log"), List.of(line(5_000, "200", "0"), line(5_999, "200", "0")));

        OriginWindows windows = OriginWindows.of(NginxLog.events(log));
        assertThat(windows.peak().count()).isEqualTo(2);
        assertThat(windows.peak(OriginWindows.WINDOW_MS - 2 * OriginWindows.RESOLUTION_MS).count()).isEqualTo(1);
    }

    @Test
    void aWindowIsHalfOpenSoArrivalsOneSecondApartAreNeverTogether() throws Exception {
        Path log = Files.write(dir.resolve("access.log"), List.of(line(5_000, "200", "0"), line(6_000, "200", "0"),
                line(7_000, "200", "0")));

        assertThat(OriginWindows.of(NginxLog.events(log)).peak().count()).isEqualTo(1);
    }

    @Test
    void nothingReachedTheOriginMeansNoPeak() throws Exception {
        Path log = Files.write(dir.resolve("access.log"), List.of(line(5_000, "", "")));

        assertThat(OriginWindows.of(NginxLog.events(log)).peak()).isNull();
    }
}
