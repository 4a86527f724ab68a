package dev.ratecache.suite.model;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.model.LimitReqSpec;
import dev.ratecache.model.LimitReqStatus;
import dev.ratecache.model.Rate;
import dev.ratecache.testkit.StackTest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The limit_req model against nginx 1.22 itself: crafted request sequences go to a real nginx,
 * and the model, fed the arrival times nginx logged, must give every request the
 * {@code $limit_req_status} nginx gave it.
 */
@StackTest
class LimitReqAgainstNginxTest {

    @TempDir
    static Path prefix;

    static Nginx nginx;
    static int queuePort;
    static int nodelayPort;
    static int delayPort;
    static int keysPort;
    static int frontPort;
    static int backPort;

    static final LimitReqSpec QUEUE = LimitReqSpec.queue(Rate.perSecond(10), 3);
    static final LimitReqSpec NODELAY = LimitReqSpec.nodelay(Rate.perSecond(10), 3);
    static final LimitReqSpec DELAY = LimitReqSpec.delay(Rate.perSecond(10), 4, 2);
    static final LimitReqSpec KEYS = LimitReqSpec.queue(Rate.perSecond(5), 2);
    static final LimitReqSpec FRONT = LimitReqSpec.queue(Rate.perSecond(5), 2);
    static final LimitReqSpec BACK = LimitReqSpec.queue(Rate.perSecond(8), 3).withRejectStatus(429);

    @BeforeAll
    static void startNginx() throws Exception {
        queuePort = Nginx.freePort();
        nodelayPort = Nginx.freePort();
        delayPort = Nginx.freePort();
        keysPort = Nginx.freePort();
        frontPort = Nginx.freePort();
        backPort = Nginx.freePort();
        Files.createDirectories(prefix.resolve("html"));
        Files.writeString(prefix.resolve("html/ok"), "ok\n");
        // A static file, not `return 200`: return runs in the rewrite phase, before limit_req's
        // preaccess phase, and would never be limited.
        String serve = "root html; try_files /ok =404;";
        String http = """
                limit_req_zone $binary_remote_addr zone=queue:1m rate=10r/s;
                limit_req_zone $binary_remote_addr zone=nodelay:1m rate=10r/s;
                limit_req_zone $binary_remote_addr zone=delay:1m rate=10r/s;
                limit_req_zone $binary_remote_addr zone=keys:1m rate=5r/s;
                limit_req_zone $binary_remote_addr zone=front:1m rate=5r/s;
                limit_req_zone "origin" zone=back:1m rate=8r/s;
                server { listen 127.0.0.1:%d; access_log logs/queue.log model;
                  location / { limit_req zone=queue burst=3; %s } }
                server { listen 127.0.0.1:%d; access_log logs/nodelay.log model;
                  location / { limit_req zone=nodelay burst=3 nodelay; %s } }
                server { listen 127.0.0.1:%d; access_log logs/delay.log model;
                  location / { limit_req zone=delay burst=4 delay=2; %s } }
                server { listen 127.0.0.1:%d; access_log logs/keys.log model;
                  location / { limit_req zone=keys burst=2; %s } }
                server { listen 127.0.0.1:%d; access_log logs/front.log model;
                  location / { limit_req zone=front burst=2; proxy_pass http://127.0.0.1:%d; } }
                server { listen 127.0.0.1:%d; access_log logs/back.log model;
                  location / { limit_req zone=back burst=3; limit_req_status 429; %s } }
                """.formatted(queuePort, serve, nodelayPort, serve, delayPort, serve, keysPort, serve,
                frontPort, backPort, backPort, serve);
        nginx = Nginx.start(prefix, http, queuePort);
    }

    @AfterAll
    static void stopNginx() {
        if (nginx != null) {
            nginx.close();
        }
    }

    /** A burst, a stream above the rate, a pause to drain, and another burst; one client. */
    static List<Traffic.Planned> oneClientPlan(String name) {
        List<Traffic.Planned> plan = new ArrayList<>();
        int id = 0;
        for (int i = 0; i < 7; i++) {
            plan.add(new Traffic.Planned(0, "127.16.0.5", "/", name + "-" + id++));
        }
        for (long t = 300; t <= 1500; t += 40) {
            plan.add(new Traffic.Planned(t, "127.16.0.5", "/", name + "-" + id++));
        }
        for (long t = 1530; t <= 2300; t += 110) {
            plan.add(new Traffic.Planned(t, "127.16.0.5", "/", name + "-" + id++));
        }
        for (int i = 0; i < 6; i++) {
            plan.add(new Traffic.Planned(3000, "127.16.0.5", "/", name + "-" + id++));
        }
        return plan;
    }

    static List<NginxComparison.Row> run(int port, String log, LimitReqSpec spec, List<Traffic.Planned> plan)
            throws Exception {
        Map<String, Integer> wire = Traffic.send(port, plan, System.currentTimeMillis() + 50);
        List<Nginx.LogLine> lines = nginx.awaitLog(log, plan.size());
        assertThat(lines).hasSize(plan.size());
        List<NginxComparison.Row> rows = NginxComparison.compare(lines, spec, Nginx.LogLine::remoteAddr);
        String table = NginxComparison.describe(rows);
        System.out.println(log + ":\n" + table);
        assertOnTheWire(rows, wire, spec);
        return rows;
    }

    /**
     * Every request matches, or is a boundary case: a shift of 1-2 ms of that request's own arrival
     * gives nginx's decision (NginxComparison). No share of exact matches is required: the arrivals
     * are the times nginx logged, so how fast the machine ran changes what was sent, never whether
     * the model agrees. The tolerance is for the clocks alone: the logged times are nginx's
     * wall-clock milliseconds while limit_req used its monotonic ngx_current_msec; the two roll over
     * to the next millisecond at different instants, so a logged gap can be 1 ms off the gap
     * limit_req saw, and plans that send at multiples of the rate's period hit excess == burst
     * exactly, where that millisecond decides.
     */
    static void assertMatches(List<NginxComparison.Row> rows) {
        String table = NginxComparison.describe(rows);
        assertThat(rows).as(table).allMatch(r -> r.matched() || r.tolerated());
        long exact = rows.stream().filter(NginxComparison.Row::matched).count();
        System.out.printf("exact %d of %d, boundary %d%n", exact, rows.size(), rows.size() - exact);
    }

    /**
     * What the client got: 503 exactly for the rejected, 200 for the others, and a delayed request
     * took at least the model's delay: nginx's timer fires no earlier. No upper bound: a busy
     * machine answers later, and how much later says nothing about limit_req. One millisecond less
     * is allowed: the timer runs on the monotonic ngx_current_msec while $request_time is a
     * difference of wall-clock (gettimeofday) milliseconds, and the two clocks roll over to the
     * next millisecond at different instants.
     */
    static void assertOnTheWire(List<NginxComparison.Row> rows, Map<String, Integer> wire, LimitReqSpec spec) {
        for (NginxComparison.Row r : rows) {
            int status = wire.get(r.line().id());
            assertThat(status).isEqualTo(r.line().status());
            if (r.matched()) {
                assertThat(status).as(r.line().id())
                        .isEqualTo(r.model().status() == LimitReqStatus.REJECTED ? spec.rejectStatus() : 200);
                assertThat(r.line().requestTimeMs()).as(r.line().id())
                        .isGreaterThanOrEqualTo(r.model().delayMs() - 1);
            }
        }
    }

    static Set<LimitReqStatus> statuses(List<NginxComparison.Row> rows) {
        return rows.stream().map(r -> r.model().status()).collect(Collectors.toSet());
    }

    @Test
    void queueModeMatchesNginx() throws Exception {
        List<NginxComparison.Row> rows = run(queuePort, "queue.log", QUEUE, oneClientPlan("q"));
        assertMatches(rows);
        assertThat(statuses(rows)).containsExactlyInAnyOrder(LimitReqStatus.values());
    }

    @Test
    void nodelayModeMatchesNginx() throws Exception {
        List<NginxComparison.Row> rows = run(nodelayPort, "nodelay.log", NODELAY, oneClientPlan("n"));
        assertMatches(rows);
        assertThat(statuses(rows)).containsExactlyInAnyOrder(LimitReqStatus.PASSED, LimitReqStatus.REJECTED);
    }

    @Test
    void delayThresholdMatchesNginx() throws Exception {
        List<NginxComparison.Row> rows = run(delayPort, "delay.log", DELAY, oneClientPlan("d"));
        assertMatches(rows);
        assertThat(statuses(rows)).containsExactlyInAnyOrder(LimitReqStatus.values());
    }

    /** Three clients from three 127.x addresses at different paces share one zone, one key each. */
    static List<Traffic.Planned> threeClients(String name) {
        List<Traffic.Planned> plan = new ArrayList<>();
        int id = 0;
        for (long t = 0; t <= 2000; t += 10) {
            if (t % 70 == 0) {
                plan.add(new Traffic.Planned(t, "127.16.0.5", "/", name + "-" + id++));
            }
            if (t % 150 == 0) {
                plan.add(new Traffic.Planned(t, "127.16.0.6", "/", name + "-" + id++));
            }
            if (t % 400 == 0) {
                plan.add(new Traffic.Planned(t, "127.16.0.7", "/", name + "-" + id++));
            }
        }
        return plan;
    }

    @Test
    void severalKeysMatchNginx() throws Exception {
        List<NginxComparison.Row> rows = run(keysPort, "keys.log", KEYS, threeClients("k"));
        assertMatches(rows);
        Map<String, Set<LimitReqStatus>> byClient = new HashMap<>();
        rows.forEach(r -> byClient.computeIfAbsent(r.line().remoteAddr(), k -> new java.util.HashSet<>())
                .add(r.model().status()));
        // The fast client is limited, the slow one (2.5 r/s against 5 r/s) never is: so long as its
        // requests reached nginx more than a period (200 ms, 2 ms more for the clocks) apart, which
        // the plan's 400 ms leaves ample slack for. Checked on the times nginx logged, not the plan.
        assertThat(byClient.get("127.16.0.5")).contains(LimitReqStatus.REJECTED);
        List<Long> slow = rows.stream().filter(r -> r.line().remoteAddr().equals("127.16.0.7"))
                .map(r -> r.line().startMs()).sorted().toList();
        for (int i = 1; i < slow.size(); i++) {
            assertThat(slow.get(i) - slow.get(i - 1)).as("the slow client's requests %d and %d reached nginx "
                    + "a rate's period apart (%s)", i - 1, i, slow)
                    .isGreaterThanOrEqualTo(1_000_000 / KEYS.rate().milliPerSecond() + 2);
        }
        assertThat(byClient.get("127.16.0.7")).containsExactly(LimitReqStatus.PASSED);
    }

    /**
     * Two tiers chained: the front limits per client and proxies what it accepts to the back,
     * which limits everything with one key. The front's decisions match the model fed the front's
     * log; exactly the requests the front accepted reach the back, each no earlier than its front
     * delay; the back's decisions match the model fed the back's log; and the whole simulation,
     * fed the times nginx saw at each tier, decides every request as nginx did.
     */
    @Test
    void twoTiersMatchNginx() throws Exception {
        List<Traffic.Planned> plan = threeClients("t");
        Map<String, Integer> wire = Traffic.send(frontPort, plan, System.currentTimeMillis() + 50);
        List<Nginx.LogLine> front = nginx.awaitLog("front.log", plan.size());
        List<NginxComparison.Row> frontRows = NginxComparison.compare(front, FRONT, Nginx.LogLine::remoteAddr);
        System.out.println("front:\n" + NginxComparison.describe(frontRows));
        assertMatches(frontRows);

        Set<String> accepted = frontRows.stream()
                .filter(r -> !"REJECTED".equals(r.line().limitReqStatus()))
                .map(r -> r.line().id()).collect(Collectors.toSet());
        List<Nginx.LogLine> back = nginx.awaitLog("back.log", accepted.size());
        assertThat(back.stream().map(Nginx.LogLine::id).collect(Collectors.toSet())).isEqualTo(accepted);

        Map<String, NginxComparison.Row> frontById = frontRows.stream()
                .collect(Collectors.toMap(r -> r.line().id(), Function.identity()));
        // Each reaches the back no earlier than its front delay ended (1 ms for the clocks, as in
        // assertOnTheWire); how much later is the hop, which a busy machine stretches, and which
        // TwoTierComparison takes from these logs rather than bounding it.
        for (Nginx.LogLine b : back) {
            NginxComparison.Row f = frontById.get(b.id());
            assertThat(b.startMs()).as(b.id())
                    .isGreaterThanOrEqualTo(f.line().startMs() + f.model().delayMs() - 1);
        }

        List<NginxComparison.Row> backRows = NginxComparison.compare(back, BACK, l -> "origin");
        System.out.println("back:\n" + NginxComparison.describe(backRows));
        assertMatches(backRows);
        assertThat(statuses(backRows)).contains(LimitReqStatus.REJECTED);

        // On the wire: 503 from the front's limit, 429 from the back's, 200 otherwise.
        Map<String, String> backStatus = back.stream()
                .collect(Collectors.toMap(Nginx.LogLine::id, Nginx.LogLine::limitReqStatus));
        for (Traffic.Planned p : plan) {
            int expected = !accepted.contains(p.id()) ? 503
                    : "REJECTED".equals(backStatus.get(p.id())) ? 429 : 200;
            assertThat(wire.get(p.id())).as(p.id()).isEqualTo(expected);
        }

        // The whole simulation, fed the times nginx itself saw (TwoTierComparison): every decision at both
        // tiers must be nginx's, but those a shift of a millisecond or two flips, as in the comparisons
        // above, and two requests of one millisecond decided the other way round.
        TwoTierComparison.Result sim = TwoTierComparison.compare(FRONT, BACK, front, back);
        System.out.printf("simulation vs nginx's two tiers: %d of %d requests decided alike at both %s%n",
                sim.compared() - sim.disagreements().size(), sim.compared(), sim.disagreements());
        assertThat(sim.disagreements()).as("every disagreement is a request a millisecond from the other decision")
                .allMatch(TwoTierComparison.Disagreement::boundary);
    }

}
