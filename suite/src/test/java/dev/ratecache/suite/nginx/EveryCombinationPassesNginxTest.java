package dev.ratecache.suite.nginx;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.suite.spec.AgeSource;
import dev.ratecache.suite.spec.Balance;
import dev.ratecache.suite.spec.LimitScope;
import dev.ratecache.suite.spec.TlsFiles;
import dev.ratecache.suite.stack.StackPorts;
import dev.ratecache.suite.switches.AddressCeiling;
import dev.ratecache.suite.switches.LimitKey;
import dev.ratecache.suite.switches.LimitMode;
import dev.ratecache.suite.switches.MissingKey;
import dev.ratecache.suite.switches.StackSwitches;
import dev.ratecache.suite.switches.StaleMode;
import dev.ratecache.testkit.Required;
import dev.ratecache.testkit.LongTest;
import dev.ratecache.testkit.LongTest;
import dev.ratecache.testkit.StackTest;
import dev.ratecache.testkit.TestDirs;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * nginx -t accepts each tier's config for every combination of the switches that shape it
 * (the front end: its limit, mode, limit_conn, cache, background update and rejection status; the back end: its
 * limit, mode, freshness, balance, number of origins and rejection status).
 */
@StackTest
@LongTest
class EveryCombinationPassesNginxTest {
    private static final List<LimitMode> MODES = List.of(LimitMode.QUEUE, LimitMode.NODELAY, LimitMode.parse("delay=20"));

    @Test
    void everyFrontEndCombinationPassesNginxT() throws Exception {
        List<StackSwitches> all = new ArrayList<>();
        for (boolean limit : new boolean[] {true, false})
            for (LimitMode mode : MODES)
                for (int conn : new int[] {0, 50})
                    for (boolean cache : new boolean[] {true, false})
                        for (boolean background : new boolean[] {true, false})
                            for (int status : new int[] {429, 503})
                                for (StaleMode stale : StaleMode.values())
                                    all.add(new StackSwitches().frontLimit(limit).frontMode(mode).limitConn(conn)
                                            .cache(cache).backgroundUpdate(background).rejectStatus(status).stale(stale));
        assertThat(checkAll(Tier.FRONT, all)).isEqualTo(192);
    }

    @Test
    void everyBackEndCombinationPassesNginxT() throws Exception {
        List<StackSwitches> all = new ArrayList<>();
        List<List<URI>> originSets = List.of(List.of(),
                List.of(URI.create("http://127.0.0.1:18081"), URI.create("http://127.0.0.1:18082")));
        for (boolean limit : new boolean[] {true, false})
            for (LimitMode mode : MODES)
                for (boolean freshness : new boolean[] {true, false})
                    for (Balance balance : Balance.values())
                        for (List<URI> origins : originSets)
                            for (int status : new int[] {429, 503})
                                for (StaleMode stale : StaleMode.values()) {
                                StackSwitches s = new StackSwitches().backLimit(limit).backMode(mode)
                                        .balance(balance).origins(origins).rejectStatus(status).stale(stale);
                                if (freshness) {
                                    s.freshness("/hare", 3).freshness("/tortoise", 10).freshness("/snail", 60);
                                }
                                all.add(s);
                            }
        assertThat(checkAll(Tier.BACK, all)).isEqualTo(192);
    }

    @Test
    void theFrontEndPassesNginxTWithEitherAgeSource() throws Exception {
        Required.that(Files.isRegularFile(NginxRenderer.NJS_MODULE), "njs module not installed (libnginx-mod-http-js)");
        Path module = AgeSource.module();
        Required.that(module != null && Files.isRegularFile(module),
                "the native Age module is not built (./run-tests.sh builds it into " + AgeSource.MODULE + ")");
        List<StackSwitches> all = new ArrayList<>();
        for (AgeSource source : List.of(AgeSource.NATIVE, AgeSource.NJS))
            for (StaleMode stale : StaleMode.values())
                all.add(new StackSwitches().ageSource(source).stale(stale));
        assertThat(checkAll(Tier.FRONT, all)).isEqualTo(4);
    }

    @Test
    void everyTlsCombinationPassesNginxTAloneAndAtTheBalancer() throws Exception {
        TlsFiles tls = ThrowawayCa.write(TestDirs.fresh(getClass(), "tls"), List.of());
        List<StackSwitches> alone = new ArrayList<>();
        List<StackSwitches> balanced = new ArrayList<>();
        for (boolean http2 : List.of(true, false))
            for (boolean hsts : List.of(true, false))
                for (int httpPort : List.of(0, 18080)) {
                    alone.add(new StackSwitches().tls(true).http2(http2).hsts(hsts).httpPort(httpPort).throwawayTls(tls));
                    balanced.add(new StackSwitches().tls(true).http2(http2).hsts(hsts).httpPort(httpPort).edges(2)
                            .throwawayTls(tls));
                }
        assertThat(checkAll(Tier.FRONT, alone)).isEqualTo(8);
        assertThat(checkAll(Tier.BALANCER, balanced)).isEqualTo(8);
    }

    @Test
    void aZeroBurstPassesNginxTInEveryModeOnBothTiers() throws Exception {
        // nginx refuses burst=0, so a zero burst renders no burst argument at all.
        List<StackSwitches> all = new ArrayList<>();
        for (LimitMode mode : MODES) {
            all.add(new StackSwitches().frontBurst(0).frontMode(mode).backBurst(0).backMode(mode));
        }
        assertThat(checkAll(Tier.FRONT, all)).isEqualTo(3);
        assertThat(checkAll(Tier.BACK, all)).isEqualTo(3);
    }

    /** A tiers file with inline keys, a key file, a key that is one of map's own words, and its own anonymous tier. */
    static Path tiersFile(Path dir) throws java.io.IOException {
        java.nio.file.Files.createDirectories(dir);
        Path file = dir.resolve("tiers.txt");
        java.nio.file.Files.writeString(file, "free 1 2 nodelay free-1,default\npro-plus 50 100 delay=10 @pro.keys\n"
                + "anonymous 5 10 queue\n");
        java.nio.file.Files.writeString(dir.resolve("pro.keys"), "pro-1\nPRO/2+base64==\n");
        return file;
    }

    /**
     * Every combination of the identity switches that changes the rendered configs: the limit key (each
     * kind), the missing key, the address ceiling, tiers, an allow-list and the scope, and a key with the
     * per-client limit off. By address only the allow-list and the scope apply (the others are refused).
     */
    static List<StackSwitches> identityCombinations(Path tiers) {
        List<StackSwitches> all = new ArrayList<>();
        List<LimitKey> keys = List.of(LimitKey.ADDR, LimitKey.parse("header:X-Api-Key"), LimitKey.parse("cookie:session"),
                LimitKey.parse("arg:api_key"));
        for (LimitKey key : keys)
            for (MissingKey missing : MissingKey.values())
                for (AddressCeiling ceiling : List.of(AddressCeiling.AUTO, AddressCeiling.OFF, AddressCeiling.parse("30,60")))
                    for (Path tiersFile : new Path[] {null, tiers})
                        for (List<String> allow : List.of(List.<String>of(), List.of("10.0.0.0/8", "2001:db8::/32", "127.0.0.77")))
                            for (LimitScope scope : LimitScope.values()) {
                                if (key.byAddress() && (tiersFile != null || missing != MissingKey.ADDR
                                        || ceiling != AddressCeiling.AUTO)) {
                                    continue;
                                }
                                all.add(new StackSwitches().limitKey(key).missingKey(missing).addressCeiling(ceiling)
                                        .tiers(tiersFile).allow(allow).limitScope(scope));
                            }
        all.add(new StackSwitches().limitKey(LimitKey.parse("header:X-Api-Key")).frontLimit(false));
        return all;
    }

    @Test
    void everyIdentityCombinationPassesNginxTOnBothTiers() throws Exception {
        List<StackSwitches> all = identityCombinations(tiersFile(TestDirs.fresh(getClass(), "tiers-file")));
        assertThat(all).allSatisfy(s -> assertThat(s.problems()).isEmpty());
        assertThat(checkAll(Tier.FRONT, all)).isEqualTo(4 + 3 * 2 * 3 * 2 * 2 * 2 + 1);
        assertThat(checkAll(Tier.BACK, all)).isEqualTo(4 + 3 * 2 * 3 * 2 * 2 * 2 + 1);
    }

    /**
     * Quotas: --quota alone, a tiers file's quota= beside it (one tier at its own, one at none, the
     * rest at --quota), or the tiers file's alone; by address or by key; counted at the edge or, with
     * --limit-scope misses, at the back end; in each window mode.
     */
    @Test
    void everyQuotaCombinationPassesNginxTOnBothTiers() throws Exception {
        dev.ratecache.suite.stack.FleetLog.requireSharedLimit();
        Path dir = TestDirs.fresh(getClass(), "quota-tiers");
        Path tiers = Files.writeString(dir.resolve("tiers.txt"),
                "gold 10 20 nodelay quota=1000/d gold-1\nfree 1 2 queue quota=none free-1\nplain 5 5 queue plain-1\n");
        List<StackSwitches> all = new ArrayList<>();
        for (dev.ratecache.suite.spec.Quota.Window window : dev.ratecache.suite.spec.Quota.Window.values())
            for (LimitScope scope : LimitScope.values()) {
                all.add(new StackSwitches().quota("100/h", window).limitScope(scope));
                all.add(new StackSwitches().quota("100/h", window).limitScope(scope).limitKey(LimitKey.parse("header:X-Api-Key"))
                        .tiers(tiers));
                all.add(new StackSwitches().quota(null, window).limitScope(scope).limitKey(LimitKey.parse("cookie:session"))
                        .tiers(tiers).allow(List.of("10.0.0.0/8")));
            }
        assertThat(all).allSatisfy(s -> assertThat(s.problems()).isEmpty());
        assertThat(checkAll(Tier.FRONT, all)).isEqualTo(18);
        assertThat(checkAll(Tier.BACK, all)).isEqualTo(18);
    }

    @Test
    void aKeyOf256BytesPassesNginxTOnBothTiers() throws Exception {
        // nginx's default map bucket (a 64-byte cache line) holds no key this long: nginx -t failed with
        // "could not build map_hash, you should increase map_hash_bucket_size".
        Path dir = TestDirs.fresh(getClass(), "long-key");
        Path tiers = java.nio.file.Files.writeString(dir.resolve("tiers.txt"),
                "pro 50 100 nodelay short," + "k".repeat(256) + "\n");
        assertThat(checkWithoutHashWarning(tiers)).isEqualTo(2);
    }

    @Test
    void fiveThousandKeysPassNginxTOnBothTiersWithoutAHashWarning() throws Exception {
        // nginx's default map_hash_max_size (2048) leaves it no table where 5000 keys fit: it warns
        // "could not build optimal map_hash" and ignores the bucket size.
        Path dir = TestDirs.fresh(getClass(), "many-keys");
        java.util.Random random = new java.util.Random(21);
        StringBuilder keys = new StringBuilder();
        for (int i = 0; i < 5000; i++) {
            // API-key-like: 20 to 64 characters of base64url, numbered so that no two are alike.
            byte[] bytes = new byte[48];
            random.nextBytes(bytes);
            keys.append(i).append('-').append(java.util.Base64.getUrlEncoder().withoutPadding().encodeToString(bytes), 0,
                    20 + random.nextInt(45)).append('\n');
        }
        java.nio.file.Files.writeString(dir.resolve("pro.keys"), keys);
        Path tiers = java.nio.file.Files.writeString(dir.resolve("tiers.txt"), "pro 50 100 nodelay @pro.keys\n");
        assertThat(checkWithoutHashWarning(tiers)).isEqualTo(2);
    }

    /** nginx -t on the front and (the keys counted there, scope misses) the back end, and no hash warning in either's log. */
    private int checkWithoutHashWarning(Path tiers) throws Exception {
        StackSwitches s = new StackSwitches().limitKey(LimitKey.parse("header:X-Api-Key")).tiers(tiers)
                .limitScope(LimitScope.MISSES);
        assertThat(s.problems()).isEmpty();
        StackPorts ports = StackPorts.free();
        int checked = 0;
        for (Tier tier : List.of(Tier.FRONT, Tier.BACK)) {
            Path prefix = TestDirs.fresh(getClass(), "hash-" + tiers.getParent().getFileName() + "-" + tier.id());
            NginxServer.prepare(tier, s.spec(ports), prefix);
            for (String log : List.of("logs/error.log", "logs/nginx-t.log")) {
                Path file = prefix.resolve(log);
                String text = java.nio.file.Files.exists(file) ? java.nio.file.Files.readString(file) : "";
                assertThat(text).as(tier + " " + log).doesNotContain("map_hash");
            }
            checked++;
        }
        return checked;
    }

    private int checkAll(Tier tier, List<StackSwitches> all) throws Exception {
        StackPorts ports = StackPorts.free();
        int checked = 0;
        for (StackSwitches switches : all) {
            Path prefix = TestDirs.fresh(getClass(), tier.id() + "-" + checked);
            // prepare() renders and runs nginx -t, throwing with nginx's own words on failure.
            NginxServer.prepare(tier, switches.spec(ports), prefix);
            checked++;
        }
        return checked;
    }
}
