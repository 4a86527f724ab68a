package dev.ratecache.suite.matrix;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import dev.ratecache.suite.switches.StackSwitches;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The matrices and their cells. */
class MatrixTest {
    private static final List<Plan> PLANS = Plan.REFERENCE;

    @Test
    void defaultMatrixIsTheReferenceExperiment() {
        assertThat(Matrix.reference(PLANS)).extracting(Cell::name).containsExactly(
                "stress/no-caching", "stress/server-cache", "stress/client-cache", "stress/both", "stress/direct",
                "stress/library", "load/no-caching", "load/server-cache", "load/client-cache", "load/both", "load/library");
        assertThat(Matrix.reference(PLANS)).filteredOn(c -> !c.direct())
                .allSatisfy(c -> assertThat(c.frontLimit() && c.backLimit()).isTrue());
    }

    @Test
    void fullMatrixHasEveryCombinationPerPlanPlusDirect() {
        List<Cell> full = Matrix.full(PLANS);
        assertThat(full).hasSize(2 * (16 + 1 + 1));
        assertThat(full).extracting(Cell::name).doesNotHaveDuplicates()
                .contains("stress/front-off.back-on.server-on.client-off", "load/direct");
    }

    @Test
    void aUsersOwnPlanGetsNoLibraryRowAndNoReference() {
        List<Cell> cells = Matrix.reference(List.of(Plan.custom(Path.of("plans/mine.jmx"))));

        assertThat(cells).extracting(Cell::name)
                .containsExactly("mine/no-caching", "mine/server-cache", "mine/client-cache", "mine/both");
        assertThat(cells).allSatisfy(c -> assertThat(c.reference()).isEmpty());
    }

    @Test
    void cellsReadAsWhatTheyDo() {
        Cell library = Cell.of(Plan.LOAD, "library").clientCache().generator(Generator.LIBRARY).build();
        Cell direct = Cell.of(Plan.STRESS, "direct").direct().build();

        assertThat(library.describe()).startsWith("the client library").contains("front limit on, back limit on");
        assertThat(library.frontLimit() && library.backLimit() && library.clientCache() && !library.serverCache()).isTrue();
        assertThat(direct.frontLimit() || direct.backLimit() || direct.serverCache()).isFalse();
        assertThat(Matrix.reference(PLANS)).contains(library, direct);
    }

    @Test
    void aDirectCellCannotHaveSwitches() {
        assertThatThrownBy(() -> Cell.of(Plan.STRESS, "odd").direct().serverCache().build())
                .hasMessageContaining("direct");
    }

    @Test
    void referenceFiguresBelongToCellsOfTheReferencesShapeOnly() {
        assertThat(Matrix.full(PLANS)).filteredOn(c -> c.reference().isPresent()).extracting(Cell::name)
                .containsExactlyInAnyOrder("stress/front-on.back-on.server-off.client-off",
                        "stress/front-on.back-on.server-off.client-on", "stress/front-on.back-on.server-on.client-off",
                        "stress/front-on.back-on.server-on.client-on", "stress/direct",
                        "load/front-on.back-on.server-off.client-off", "load/front-on.back-on.server-off.client-on",
                        "load/front-on.back-on.server-on.client-off", "load/front-on.back-on.server-on.client-on");
        assertThat(Matrix.reference(PLANS).get(1).reference()).hasValueSatisfying(r -> assertThat(r.throughput()).isEqualTo(99.3));
    }

    @Test
    void anotherProductsCellCarriesNoReferenceFigureTheReferenceRanNginx() {
        assertThat(dev.ratecache.suite.kinds.edges.EdgeCells.of(100)).filteredOn(c -> c.reference().isPresent())
                .allSatisfy(c -> assertThat(c.edge()).isEqualTo(dev.ratecache.suite.edge.EdgeProduct.NGINX));
        assertThat(dev.ratecache.suite.kinds.edges.EdgeCells.of(100)).filteredOn(c -> c.edge() != dev.ratecache.suite.edge.EdgeProduct.NGINX)
                .isNotEmpty().allSatisfy(c -> assertThat(c.reference()).as(c.name()).isEmpty());
    }

    @Test
    void onlyTheReferencesLimitsStandBesideItsFigures() {
        assertThat(new dev.ratecache.suite.switches.StackSwitches().limitsAsTheReference()).isTrue();
        assertThat(new dev.ratecache.suite.switches.StackSwitches()
                .frontMode(dev.ratecache.suite.switches.LimitMode.NODELAY).limitsAsTheReference()).isFalse();
        assertThat(new dev.ratecache.suite.switches.StackSwitches()
                .backMode(dev.ratecache.suite.switches.LimitMode.NODELAY).limitsAsTheReference()).isFalse();
    }

    @Test
    void eachBuiltInPlanIsAFileOfJmeterPlans() {
        assertThat(Plan.builtInNames()).containsExactly("stress", "load", "flood", "hotset", "keys");
        assertThat(Plan.BUILT_IN).allSatisfy(p -> assertThat(p.file()).isRegularFile()
                .hasFileName(p.name() + ".jmx"));
    }

    @Test
    void thePlansPathsAreTheDefaultsTheirFilesDeclare() throws Exception {
        // The library's driver sends the plan's paths from Plan; JMeter's defaults must agree with them.
        for (Plan plan : Plan.BUILT_IN) {
            String jmx = java.nio.file.Files.readString(plan.file());
            plan.paths().forEach((property, path) ->
                    assertThat(jmx).as(plan.name()).contains("${__P(" + property + "," + path + ")}"));
            java.util.stream.Stream.concat(Plan.COMMON_COUNTS.stream(), plan.counts().stream()).forEach(property ->
                    assertThat(jmx).as(plan.name()).contains("${__P(" + property + ","));
        }
    }

    @Test
    void onlyKeepsTheNamedCellsInMatrixOrder() {
        assertThat(Matrix.select(Matrix.reference(PLANS), List.of("load/both", "stress/direct")))
                .extracting(Cell::name).containsExactly("stress/direct", "load/both");
    }

    @Test
    void cellSwitchesLeaveTheUsersOtherSwitchesAlone() {
        StackSwitches mine = new StackSwitches().frontRate(7).cache(true);
        Cell noCaching = Matrix.reference(PLANS).get(0);

        StackSwitches applied = noCaching.apply(mine);

        assertThat(applied.cache()).isFalse();
        assertThat(mine.cache()).as("the user's switches are not changed").isTrue();
        assertThat(applied.describe()).contains("front limit 7 r/s");
    }

    @Test
    void copyCarriesEverySwitch() throws Exception {
        StackSwitches changed = new StackSwitches();
        // Give every field a value unlike its default, then check the copy has them all.
        List<java.util.Map.Entry<Object, Field>> fields = switchFields(changed);
        assertThat(fields).as("the switches' fields").hasSizeGreaterThan(40);
        for (java.util.Map.Entry<Object, Field> e : fields) {
            Object holder = e.getKey();
            Field f = e.getValue();
            Object value = f.get(holder);
            if (value instanceof Boolean b) {
                f.set(holder, !b);
            } else if (value instanceof Integer i) {
                f.set(holder, i + 1);
            } else if (value instanceof String) {
                f.set(holder, "x" + value);
            } else if (value instanceof java.util.Map<?, ?>) {
                f.set(holder, new java.util.LinkedHashMap<>(java.util.Map.of("/p", 1)));
            } else if (value instanceof java.util.List<?>) {
                f.set(holder, new java.util.ArrayList<>(List.of(java.net.URI.create("http://h:1"))));
            } else if (value instanceof dev.ratecache.suite.switches.LimitMode) {
                f.set(holder, dev.ratecache.suite.switches.LimitMode.parse("delay=3"));
            } else if (value instanceof dev.ratecache.suite.switches.StaleMode mode) {
                f.set(holder, mode == dev.ratecache.suite.switches.StaleMode.RFC
                        ? dev.ratecache.suite.switches.StaleMode.PROTECTIVE : dev.ratecache.suite.switches.StaleMode.RFC);
            } else if (value instanceof dev.ratecache.suite.spec.FleetLimit) {
                f.set(holder, dev.ratecache.suite.spec.FleetLimit.SHARED);
            } else if (value instanceof dev.ratecache.suite.spec.EdgeBalance) {
                f.set(holder, dev.ratecache.suite.spec.EdgeBalance.URI_HASH);
            } else if (value instanceof dev.ratecache.suite.spec.Balance) {
                f.set(holder, dev.ratecache.suite.spec.Balance.LEAST_CONN);
            } else if (value instanceof dev.ratecache.suite.switches.LimitKey) {
                f.set(holder, dev.ratecache.suite.switches.LimitKey.parse("header:X-Api-Key"));
            } else if (value instanceof dev.ratecache.suite.switches.MissingKey) {
                f.set(holder, dev.ratecache.suite.switches.MissingKey.REJECT);
            } else if (value instanceof dev.ratecache.suite.switches.AddressCeiling) {
                f.set(holder, dev.ratecache.suite.switches.AddressCeiling.OFF);
            } else if (value instanceof dev.ratecache.suite.spec.AgeSource) {
                f.set(holder, dev.ratecache.suite.spec.AgeSource.NJS);
            } else if (value instanceof dev.ratecache.suite.spec.Quota.Window) {
                f.set(holder, dev.ratecache.suite.spec.Quota.Window.CALENDAR);
            } else if (value instanceof dev.ratecache.suite.spec.LimitScope) {
                f.set(holder, dev.ratecache.suite.spec.LimitScope.MISSES);
            } else if (value == null && f.getType() == String.class) {
                f.set(holder, "127.0.0.1:6379");
            } else if (value == null && f.getType() == Path.class) {
                f.set(holder, Path.of("tiers.txt"));
            } else if (value == null && f.getType() == dev.ratecache.suite.spec.TlsFiles.class) {
                f.set(holder, new dev.ratecache.suite.spec.TlsFiles(Path.of("s.pem"), Path.of("s.key"), Path.of("ca.pem")));
            } else {
                throw new AssertionError("no test value for field " + f.getName() + " of " + f.getType());
            }
        }
        List<java.util.Map.Entry<Object, Field>> copied = switchFields(changed.copy());
        for (int i = 0; i < fields.size(); i++) {
            Field f = fields.get(i).getValue();
            assertThat(copied.get(i).getKey()).as("a group of its own").isNotSameAs(fields.get(i).getKey());
            assertThat(f.get(copied.get(i).getKey())).as(f.getName()).isEqualTo(f.get(fields.get(i).getKey()));
        }
    }

    @Test
    void copyCarriesTheUsersOwnConfig() {
        dev.ratecache.suite.spec.UserFront own = new dev.ratecache.suite.spec.UserFront() {
            @Override public Path write(dev.ratecache.suite.spec.StackSpec spec, Path prefix) { return prefix; }
            @Override public List<SentPath> paths() { return List.of(new SentPath("/api/", "hare")); }
            @Override public boolean limits() { return true; }
            @Override public boolean caches() { return false; }
            @Override public String describe() { return "mine.conf"; }
        };
        StackSwitches copy = new StackSwitches().ownFront(own).copy();

        assertThat(copy.ownFront()).containsSame(own);
        assertThat(copy.describe()).startsWith("front tier: your config (mine.conf)");
    }

    /** Every field that holds a switch: the fields of StackSwitches' groups, each with the group object it is in. */
    private static List<java.util.Map.Entry<Object, Field>> switchFields(StackSwitches s) throws IllegalAccessException {
        List<java.util.Map.Entry<Object, Field>> all = new java.util.ArrayList<>();
        for (Field group : StackSwitches.class.getDeclaredFields()) {
            if (Modifier.isStatic(group.getModifiers())) {
                continue;
            }
            if (!group.isAnnotationPresent(picocli.CommandLine.Mixin.class)) {
                // Not a flag group: the user's own config, which the command reads (copyCarriesTheUsersOwnConfig).
                continue;
            }
            group.setAccessible(true);
            Object holder = group.get(s);
            for (Field f : holder.getClass().getDeclaredFields()) {
                if (!Modifier.isStatic(f.getModifiers())) {
                    f.setAccessible(true);
                    all.add(java.util.Map.entry(holder, f));
                }
            }
        }
        return all;
    }

    @Test
    void expectedSampleCountFollowsThePlansShape() {
        assertThat(Plan.STRESS.expectedSamples(java.util.Map.of("users", "100", "loops", "10"))).isEqualTo(1000);
        assertThat(Plan.LOAD.expectedSamples(java.util.Map.of("users", "10", "loops", "10"))).isEqualTo(300);
        assertThat(Plan.HOTSET.expectedSamples(Plan.HOTSET.sizes(Profile.DEFAULT))).isEqualTo(20 * 100);
        assertThat(Plan.custom(Path.of("mine.jmx")).expectedSamples(java.util.Map.of("users", "10", "loops", "10"))).isZero();
    }

    @Test
    void fullProfileHasTheDefaultSizes() {
        assertThat(Plan.STRESS.sizes(Profile.FULL)).isEqualTo(Plan.STRESS.sizes(Profile.DEFAULT)).containsEntry("users", "100");
        assertThat(Plan.LOAD.sizes(Profile.QUICK)).containsEntry("users", "5");
        assertThat(Profile.FULL.repeats()).isEqualTo(3);
    }
}
