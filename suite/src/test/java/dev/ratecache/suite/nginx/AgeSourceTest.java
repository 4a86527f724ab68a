package dev.ratecache.suite.nginx;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.suite.spec.AgeSource;
import dev.ratecache.suite.switches.StackSwitches;
import dev.ratecache.testkit.TestDirs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** What counts the edge's Age: auto follows the built module; a source given is kept; the switches line names it. */
class AgeSourceTest {

    @Test
    void autoIsNativeExactlyWhenTheModuleIsBuilt() throws IOException {
        Path dir = TestDirs.fresh(getClass(), "module");
        Path built = Files.writeString(dir.resolve("ngx_http_upstream_cache_age_module.so"), "");
        Path missing = dir.resolve("missing.so");

        assertThat(AgeSource.AUTO.resolved(built)).isEqualTo(AgeSource.NATIVE);
        assertThat(AgeSource.AUTO.resolved(missing)).isEqualTo(AgeSource.NJS);
        // Outside a checkout there is no built module to find.
        assertThat(AgeSource.AUTO.resolved(null)).isEqualTo(AgeSource.NJS);
        assertThat(AgeSource.NATIVE.resolved(missing)).isEqualTo(AgeSource.NATIVE);
        assertThat(AgeSource.NJS.resolved(built)).isEqualTo(AgeSource.NJS);
    }

    @Test
    void theSwitchesLineSaysWhichAgeIsInUse() {
        assertThat(new StackSwitches().ageSource(AgeSource.NATIVE).describe()).contains("edge cache on (100m, Age native)");
        assertThat(new StackSwitches().ageSource(AgeSource.NJS).describe()).contains("edge cache on (100m, Age njs)");
        assertThat(new StackSwitches().age(false).describe()).contains("edge cache on (100m, no Age)");
        // auto names what it resolved to, never "auto".
        assertThat(new StackSwitches().describe()).containsPattern("Age (native|njs)\\)");
    }

    @Test
    void nativeWithoutTheModuleIsAProblemNamingHowToBuildIt() {
        Path module = AgeSource.module();
        boolean built = module != null && Files.isRegularFile(module);
        String problem = "--age-source native needs the module ./run-tests.sh builds (" + AgeSource.MODULE
                + "): run it once as root, or build it as nginx/modules/age/README.md says";

        if (built) {
            assertThat(new StackSwitches().ageSource(AgeSource.NATIVE).problems()).doesNotContain(problem);
        } else {
            assertThat(new StackSwitches().ageSource(AgeSource.NATIVE).problems()).contains(problem);
        }
        assertThat(new StackSwitches().ageSource(AgeSource.NJS).problems()).doesNotContain(problem);
    }
}
