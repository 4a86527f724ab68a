package dev.ratecache.suite.model;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.model.LimitReq;
import dev.ratecache.model.LimitReqSpec;
import dev.ratecache.model.LimitReqStatus;
import dev.ratecache.model.Rate;
import dev.ratecache.model.ZoneStates;
import dev.ratecache.testkit.StackTest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A full limit_req zone against nginx 1.22 itself: the smallest zone nginx takes (32k) holds the
 * number of addresses {@link ZoneStates} says, and one more address makes nginx forget the least
 * recently used, whatever its state, as the model does. At 1 r/m with no burst, an address seen
 * in the last minute is refused, so a second request shows whether nginx still held its state.
 */
@StackTest
class LimitReqZoneFullAgainstNginxTest {
    private static final LimitReqSpec ONE_A_MINUTE = LimitReqSpec.nodelay(Rate.perMinute(1), 0);
    /** Addresses past the zone's capacity: the first this many are forgotten. */
    private static final int PAST = 5;

    @TempDir
    static Path prefix;

    static Nginx nginx;
    static int port;

    @BeforeAll
    static void startNginx() throws Exception {
        port = Nginx.freePort();
        Files.createDirectories(prefix.resolve("html"));
        Files.writeString(prefix.resolve("html/ok"), "ok\n");
        nginx = Nginx.start(prefix, """
                limit_req_zone $binary_remote_addr zone=small:32k rate=1r/m;
                server { listen 127.0.0.1:%d; access_log logs/small.log model;
                  location / { limit_req zone=small; root html; try_files /ok =404; } }
                """.formatted(port), port);
    }

    @AfterAll
    static void stopNginx() {
        if (nginx != null) {
            nginx.close();
        }
    }

    /** Each address once, then each again newest first: the revisits of the held ones move none out. */
    static List<String> fillThenRevisitNewestFirst(long capacity) {
        List<String> addresses = new ArrayList<>();
        for (int i = 0; i < capacity + PAST; i++) {
            addresses.add("127.17." + (i / 250) + "." + (1 + i % 250));
        }
        List<String> sequence = new ArrayList<>(addresses);
        for (int i = addresses.size() - 1; i >= 0; i--) {
            sequence.add(addresses.get(i));
        }
        return sequence;
    }

    static List<LimitReqStatus> model(List<String> sequence, long capacity) {
        LimitReq zone = new LimitReq(ONE_A_MINUTE, capacity);
        return sequence.stream().map(a -> zone.decide(a, 1000).status()).toList();
    }

    @Test
    void aFullZoneForgetsItsLeastRecentlyUsedAddressesAsTheModelSays() throws Exception {
        long capacity = ZoneStates.states(32 * 1024, 4, "small");
        List<String> sequence = fillThenRevisitNewestFirst(capacity);

        List<LimitReqStatus> wire = new ArrayList<>();
        for (int i = 0; i < sequence.size(); i++) {
            int status = Nginx.get(sequence.get(i), port, "/", "z-" + i);
            assertThat(status).as("request %d from %s", i, sequence.get(i)).isIn(200, 503);
            wire.add(status == 200 ? LimitReqStatus.PASSED : LimitReqStatus.REJECTED);
        }

        assertThat(wire).isEqualTo(model(sequence, capacity));
        // The first PAST addresses were forgotten and passed again; every other one was held and refused.
        List<LimitReqStatus> revisits = wire.subList(sequence.size() / 2, sequence.size());
        assertThat(revisits.stream().filter(s -> s == LimitReqStatus.PASSED).count()).isEqualTo(PAST);
        // nginx's log agrees with the wire, request by request.
        assertThat(nginx.awaitLog("small.log", sequence.size())).extracting(Nginx.LogLine::limitReqStatus)
                .isEqualTo(wire.stream().map(Enum::name).toList());
    }

    @Test
    void aZoneOneStateLargerOrSmallerWouldDecideOtherwise() {
        // The comparison above can fail: a capacity off by one gives another sequence of decisions.
        long capacity = ZoneStates.states(32 * 1024, 4, "small");
        List<String> sequence = fillThenRevisitNewestFirst(capacity);

        assertThat(model(sequence, capacity + 1)).isNotEqualTo(model(sequence, capacity));
        assertThat(model(sequence, capacity - 1)).isNotEqualTo(model(sequence, capacity));
    }
}
