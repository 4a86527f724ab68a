package dev.ratecache.suite.peak;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.ratecache.suite.Repo;
import dev.ratecache.suite.nginx.NginxRenderer;
import dev.ratecache.suite.nginx.Tier;
import dev.ratecache.suite.peak.HitBreakdown.Feature;
import dev.ratecache.suite.peak.HitBreakdown.Step;
import dev.ratecache.suite.spec.AgeSource;
import dev.ratecache.suite.stack.StackPorts;
import dev.ratecache.suite.switches.StackSwitches;
import dev.ratecache.testkit.TestDirs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The breakdown's steps, as configs cut from the production front: what each keeps and leaves out. */
class HitBreakdownTest {
    private static final Pattern INCLUDE = Pattern.compile("(?m)^\\s*include snippets/(\\S+);");

    private static String production(AgeSource age) throws IOException {
        Path conf = TestDirs.fresh(HitBreakdownTest.class, "front-" + age);
        new NginxRenderer(Repo.nginxTemplates()).render(Tier.FRONT, HitBreakdown.edge(new StackSwitches().ageSource(age)).spec(new StackPorts()), conf);
        return Files.readString(conf.resolve(Tier.FRONT.template()));
    }

    private static List<String> includes(String config) {
        Matcher m = INCLUDE.matcher(config);
        List<String> found = new java.util.ArrayList<>();
        while (m.find()) {
            found.add(m.group(1));
        }
        return found;
    }

    @Test
    void bareCacheKeepsOnlyTheCacheAndTheProxyingWithTheLogOff() throws IOException {
        String bare = HitBreakdown.variant(production(AgeSource.NATIVE), EnumSet.noneOf(Feature.class), 40001);

        assertThat(includes(bare)).containsExactlyInAnyOrderElementsOf(HitBreakdown.BARE);
        assertThat(bare).contains("http {\n  access_log off;").contains("listen 127.0.0.1:40001;")
                .doesNotContainPattern("(?m)^\\s*load_module");
    }

    @Test
    void productionStepKeepsEveryIncludeButTheStatusServer() throws IOException {
        for (AgeSource age : List.of(AgeSource.NATIVE, AgeSource.NJS)) {
            String production = production(age);
            List<Step> steps = HitBreakdown.ladder(age == AgeSource.NATIVE, true);
            String last = HitBreakdown.variant(production, steps.get(steps.size() - 1).features(), 40002);

            List<String> expected = new java.util.ArrayList<>(includes(production));
            expected.remove(HitBreakdown.STATUS_SERVER);
            assertThat(expected).as("an edge behind the balancer has real-ip").contains("shared/real-ip.conf");
            assertThat(includes(last)).as(age.toString()).containsExactlyElementsOf(expected);
            assertThat(last).containsPattern("(?m)^load_module").doesNotContain("access_log off;");
        }
    }

    @Test
    void eachStepAddsOneFeatureAndTheNjsAgeStandsBesideTheNative() {
        List<Step> steps = HitBreakdown.ladder(true, true);

        assertThat(steps).extracting(Step::label).containsExactly("bare proxy_cache",
                "+ " + Feature.LIMITS.label(), "+ " + Feature.LOG.label(), "+ " + Feature.SECURITY_HEADERS.label(),
                "+ " + Feature.AGE_NJS.label(), "+ " + Feature.AGE.label(), "+ " + Feature.INVALIDATION.label(),
                "+ " + Feature.PURGE.label(), "+ " + Feature.VALIDATOR_PRECEDENCE.label(),
                "+ " + Feature.COMPRESSION.label(), "+ " + Feature.REQUEST_LIMITS.label(),
                "+ " + Feature.REAL_IP.label(), "+ " + Feature.INTERNAL_PATHS.label());
        assertThat(steps.get(4).njsAge()).isTrue();
        assertThat(steps.get(5).features()).contains(Feature.AGE).doesNotContain(Feature.AGE_NJS);
        assertThat(steps.get(steps.size() - 1).features()).doesNotContain(Feature.AGE_NJS);
    }

    private static Figure<Step> row(Step step, Double... cpuMicros) {
        return new Figure<>(step, List.of(), List.of(), List.of(cpuMicros), List.of());
    }

    @Test
    void aStepsCostIsTheMedianOfEachRoundsOwnDifferenceSoADriftingRoundCancelsOut() {
        List<Step> steps = HitBreakdown.ladder(true, true);
        // The second round ran on a machine twice as slow: every step took twice the CPU.
        List<Figure<Step>> rows = List.of(row(steps.get(0), 10.0, 20.0, 10.0), row(steps.get(1), 11.0, 22.0, 11.0),
                row(steps.get(2), 11.0, 22.0, 11.0), row(steps.get(3), 12.0, 24.0, 12.0),
                row(steps.get(4), 20.0, 40.0, 20.0), row(steps.get(5), 12.5, 25.0, 12.5));

        assertThat(HitBreakdown.stepCost(rows, 1)).isCloseTo(0.10, within(1e-9));
        assertThat(HitBreakdown.stepCost(rows, 2)).isCloseTo(0.0, within(1e-9));
        // The njs Age on top of the security headers; the native Age too, not on top of the njs one.
        assertThat(HitBreakdown.stepCost(rows, 4)).isCloseTo(0.80, within(1e-9));
        assertThat(HitBreakdown.stepCost(rows, 5)).isCloseTo(0.05, within(1e-9));
    }

    @Test
    void aSnippetNoStepNamesIsRefusedNotLeftOutUnmeasured() {
        String config = "http {\n  include snippets/front/something-new.conf;\n}\n";

        assertThatThrownBy(() -> HitBreakdown.variant(config, EnumSet.noneOf(Feature.class), 40003))
                .hasMessageContaining("snippets/front/something-new.conf");
    }
}
