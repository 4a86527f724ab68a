package dev.ratecache.suite.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.jtl.Jtl;
import dev.ratecache.jtl.Sample;
import dev.ratecache.suite.Repo;
import dev.ratecache.testkit.LongTest;
import dev.ratecache.testkit.StackTest;
import dev.ratecache.testkit.TestDirs;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A limit_req zone too small for the keys that reach it, measured: 300 new API keys a second flood
 * a config whose zone holds about 191 states (32k), beside one client sending its key at twice its
 * rate. nginx forgets the least recently used state to make room, so every key, the client's too,
 * comes back to a fresh bucket and the limit barely holds; in a zone of 1m the same traffic is
 * refused as the rate says. The keys plan (a copy, as a plan of the user's own) sends the keys.
 */
@StackTest
@LongTest
class ZoneFloodStackTest {
    /** One client at 1 r/s against 30r/m, and 300 keys at 1 r/s each: more new keys a second than 32k holds. */
    static final String KEYS;

    static {
        List<String> keys = new ArrayList<>(List.of("t:1:legit"));
        for (int i = 1; i <= 300; i++) {
            keys.add("t:1:k" + i);
        }
        KEYS = String.join(";", keys);
    }

    private static List<Sample> small;
    private static List<Sample> large;

    private static List<Sample> run(String zone) throws Exception {
        Path dir = TestDirs.fresh(ZoneFloodStackTest.class, zone);
        Path conf = dir.resolve("zone-" + zone + ".conf");
        try (InputStream in = ZoneFloodStackTest.class.getResourceAsStream("/dev/ratecache/suite/ownconfig/zone-" + zone + ".conf")) {
            Files.write(conf, in.readAllBytes());
        }
        Path plan = Files.copy(Repo.root().resolve("jmeter/plans/keys.jmx"), dir.resolve("keyflood.jmx"));
        CommandRun cli = new CommandRun();
        List<String> args = new ArrayList<>(List.of("--nginx-conf", conf.toString(), "--plan", plan.toString(),
                "--profile", "quick", "--only", "keyflood/server-cache", "-Jkeys=" + KEYS, "-Jhold=10",
                "--no-dashboards", "--results", dir.resolve("results").toString()));
        args.addAll(dev.ratecache.suite.stack.StackPorts.free().flags());
        int exit = cli.run(args.toArray(String[]::new));
        assertThat(exit).as(cli.out() + cli.err()).isZero();
        return Jtl.read(dir.resolve("results/latest/cells/keyflood-server-cache/jmeter/results.jtl"));
    }

    @BeforeAll
    static void flood() throws Exception {
        small = run("32k");
        large = run("1m");
    }

    private static double rejectedPct(List<Sample> samples) {
        return 100.0 * samples.stream().filter(Sample::rejected).count() / samples.size();
    }

    private static List<Sample> legit(List<Sample> samples) {
        return samples.stream().filter(s -> s.label().equals("t/legit")).toList();
    }

    @Test
    void inAZoneOfRoomEnoughTheKeysAreRefusedAsTheRateSays() {
        // Each key at twice its 30r/m with no burst: about every other request refused.
        assertThat(rejectedPct(large)).isGreaterThan(30);
        assertThat(legit(large)).hasSizeGreaterThanOrEqualTo(8);
        assertThat(rejectedPct(legit(large))).isGreaterThan(20);
    }

    @Test
    void inAZoneTooSmallTheFloodEvictsEveryStateAndTheLimitBarelyHolds() {
        assertThat(rejectedPct(small)).isLessThan(rejectedPct(large) / 2);
        assertThat(legit(small)).hasSizeGreaterThanOrEqualTo(8);
        assertThat(rejectedPct(legit(small))).isLessThanOrEqualTo(rejectedPct(legit(large)));
    }
}
