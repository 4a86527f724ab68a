package dev.ratecache.suite.advise;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.accesslog.LoggedRequest;
import dev.ratecache.accesslog.TimeResolution;
import dev.ratecache.suite.advise.Advisor.Options;
import dev.ratecache.suite.advise.Advisor.TierAdvice;
import dev.ratecache.suite.switches.LimitMode;
import dev.ratecache.suite.switches.LimitTier;
import dev.ratecache.suite.switches.TierMembership;
import dev.ratecache.suite.switches.TiersFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** advise --key-field: per tier the tightest rate and burst within 1 % of its normal keys, and tiers.txt. */
class TierAdviceTest {
    private static final OffsetDateTime T0 = OffsetDateTime.parse("2026-11-20T10:00:00Z");
    private static final List<LimitTier> GIVEN = List.of(
            new LimitTier("free", 100, 100, LimitMode.NODELAY, List.of("f01", "f02", "f03", "f04", "f05", "f06")),
            // A quota of its own, which the advised file keeps (only rates and bursts are advised here).
            new LimitTier("pro", 1, 5, LimitMode.QUEUE, List.of("p1", "p2"), "2400/d"),
            new LimitTier("partner", 7, 7, LimitMode.NODELAY, List.of("never-seen")));

    @TempDir
    Path dir;

    private static LoggedRequest request(long ms, String client, String key) {
        return new LoggedRequest(0, T0.plusNanos(ms * 1_000_000), client, "GET", "/api", 200, OptionalLong.empty(),
                OptionalDouble.empty(), OptionalDouble.empty(), key);
    }

    /**
     * Two minutes, all from one address: six free keys at 1 r/s, two pro keys at 10 r/s, an unknown key at
     * 2 r/s and keyless requests at 1 r/s from another address.
     */
    private static List<LoggedRequest> log() {
        List<LoggedRequest> rs = new ArrayList<>();
        for (long ms = 0; ms < 120_000; ms += 100) {
            if (ms % 1000 == 0) {
                for (int k = 1; k <= 6; k++) {
                    rs.add(request(ms + k, "10.0.0.1", "f0" + k));
                }
                rs.add(request(ms + 7, "10.0.0.9", ""));
            }
            if (ms % 500 == 0) {
                rs.add(request(ms + 8, "10.0.0.1", "stranger"));
            }
            rs.add(request(ms + 9, "10.0.0.1", "p1"));
            rs.add(request(ms + 9, "10.0.0.1", "p2"));
        }
        rs.sort(Comparator.comparing(r -> r.time().toInstant()));
        return rs;
    }

    private static List<TierAdvice> advise(List<LimitTier> given) {
        TierMembership m = TierMembership.of(given);
        return Advisor.adviseTiers(log(), TimeResolution.SUB_SECOND, new Options(null, 1, null, 10, true),
                m.names(), m::tierOf, LimitTier.ANONYMOUS);
    }

    @Test
    void eachTierGetsTheTightestRateAndBurstThatHurtsNoneOfItsKeys() {
        Map<String, TierAdvice> byTier = advise(GIVEN).stream().collect(Collectors.toMap(TierAdvice::tier, t -> t));

        assertThat(byTier.keySet()).containsExactlyInAnyOrder("free", "pro", "partner", "anonymous");
        TierAdvice free = byTier.get("free");
        assertThat(free.keys()).isEqualTo(6);
        assertThat(free.requests()).isEqualTo(6 * 120);
        assertThat(free.pick().rate()).isEqualTo(1);
        assertThat(free.pick().burst()).isEqualTo(5);
        assertThat(free.pick().hurtClients()).isZero();
        // 10 r/s each: nothing tighter than 10 r/s passes them, and burst 5 is the smallest tried.
        TierAdvice pro = byTier.get("pro");
        assertThat(pro.keys()).isEqualTo(2);
        assertThat(pro.pick().rate()).isEqualTo(10);
        assertThat(pro.pick().burst()).isEqualTo(5);
        // The unknown key at 2 r/s and the keyless address at 1 r/s share the anonymous tier.
        TierAdvice anonymous = byTier.get("anonymous");
        assertThat(anonymous.keys()).isEqualTo(2);
        assertThat(anonymous.pick().rate()).isEqualTo(2);
        assertThat(anonymous.pick().hurtClients()).isZero();
        // A tier with no request in the log has nothing to be advised on.
        assertThat(byTier.get("partner").pick()).isNull();
    }

    @Test
    void theTightestCandidateWithinTheShareOfNormalKeysIsPickedEvenIfItHurtsSome() {
        // 200 keys at 1 r/s, of which 2 (1 %) send four at once every second: busier, but under the
        // outlier bar (5 times the 95th percentile key), so they count among the normal keys.
        List<LoggedRequest> rs = new ArrayList<>();
        for (long s = 0; s < 120; s++) {
            for (int k = 0; k < 200; k++) {
                rs.add(request(s * 1000 + k, "10.0.0.1", "k" + k));
                if (k < 2) {
                    for (int extra = 0; extra < 3; extra++) {
                        rs.add(request(s * 1000 + k, "10.0.0.1", "k" + k));
                    }
                }
            }
        }
        rs.sort(Comparator.comparing(r -> r.time().toInstant()));
        TierMembership none = TierMembership.of(List.of());

        TierAdvice at1 = Advisor.adviseTiers(rs, TimeResolution.SUB_SECOND, new Options(null, 1, null, 10, true),
                none.names(), none::tierOf, LimitTier.ANONYMOUS).get(0);
        TierAdvice at0 = Advisor.adviseTiers(rs, TimeResolution.SUB_SECOND, new Options(null, 0, null, 10, true),
                none.names(), none::tierOf, LimitTier.ANONYMOUS).get(0);

        assertThat(at1.normalKeys()).isEqualTo(200);
        assertThat(at1.allowedHurt()).isEqualTo(2);
        // Within 1 %: the tightest candidate, which holds the two busy keys to 1 r/s.
        assertThat(at1.pick().rate()).isEqualTo(1);
        assertThat(at1.pick().hurtClients()).isEqualTo(2);
        // Hurting none takes a rate their four a second fit in.
        assertThat(at0.pick().hurtClients()).isZero();
        assertThat(at0.pick().rate()).isGreaterThan(1);
        assertThat(at1.pick().floodPerMinute()).isLessThan(at0.pick().floodPerMinute());
    }

    @Test
    void theTiersFileReadsBackThroughTiersFileWithTheGivenKeysAndTheAdvisedLimits() throws Exception {
        TierAdviceReport report = new TierAdviceReport("api_key", "tiers.txt", GIVEN, advise(GIVEN), 100, 20, true, 1);
        Path file = Files.writeString(dir.resolve(TierAdviceReport.FILE), report.tiersFileText("api.jsonl"));

        List<LimitTier> read = TiersFile.read(file);

        assertThat(read).isEqualTo(report.recommended());
        assertThat(read).extracting(LimitTier::name).containsExactly("free", "pro", "partner", "anonymous");
        assertThat(read.get(0)).isEqualTo(new LimitTier("free", 1, 5, LimitMode.NODELAY, GIVEN.get(0).keys()));
        assertThat(read.get(1)).isEqualTo(new LimitTier("pro", 10, 5, LimitMode.NODELAY, List.of("p1", "p2"), "2400/d"));
        // No request in the log: kept as the file gave it.
        assertThat(read.get(2)).isEqualTo(GIVEN.get(2));
        assertThat(read.get(3).keys()).isEmpty();
        assertThat(report.markdown()).contains("## Per tier (keys from field api_key)", "[tiers.txt](tiers.txt)",
                "| pro | 2 | 2400 |", "no requests: kept as given");
    }

    @Test
    void withoutATiersFileEveryKeyIsAnonymousAndTheFileSaysSo() throws Exception {
        TierAdviceReport report = new TierAdviceReport("api_key", null, List.of(), advise(List.of()), 100, 20, false, 1);
        Path file = Files.writeString(dir.resolve(TierAdviceReport.FILE), report.tiersFileText("api.jsonl"));

        List<LimitTier> read = TiersFile.read(file);

        assertThat(read).hasSize(1);
        assertThat(read.get(0).name()).isEqualTo("anonymous");
        assertThat(read.get(0).mode()).isEqualTo(LimitMode.QUEUE);
        // The busiest key (10 r/s) sets the one tier's rate.
        assertThat(read.get(0).rate()).isEqualTo(10);
        assertThat(Files.readString(file)).contains("No --tiers file was given: every key is in the anonymous tier.");
        assertThat(report.markdown()).contains("No `--tiers` file was given, so every key is in one tier, `anonymous`");
        TierAdviceReport wholeSeconds = new TierAdviceReport("api_key", null, List.of(), advise(List.of()), 100, 20,
                false, 1, dev.ratecache.accesslog.WithinSecond.START);
        assertThat(wholeSeconds.markdown()).contains("with the log's requests taken as "
                + dev.ratecache.accesslog.WithinSecond.START.words());
    }
}
