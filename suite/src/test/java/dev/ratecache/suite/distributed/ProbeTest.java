package dev.ratecache.suite.distributed;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The controller's reading of a load host's probe answer (probe.jmx's response message). The two
 * refusals need a load host that differs from this controller; DistributedLoadTest runs one whose
 * JMeter lacks the suite's properties, and no second JMeter version exists here, so the answers
 * below are the ones probe.jmx would send from such hosts.
 */
class ProbeTest {
    private static final Map<String, String> WANTED = Map.of("sample_variables", "cacheStatus,retryAfter");

    @Test
    void aHostThatAgreesRaisesNothing() {
        assertThat(Probe.compare("10.0.0.2:1099", "jmeter=5.6.3\tsample_variables=cacheStatus,retryAfter", "5.6.3", WANTED))
                .isEmpty();
    }

    @Test
    void anotherJMeterVersionIsNamedWithBothVersions() {
        assertThat(Probe.compare("10.0.0.2:1099", "jmeter=5.5\tsample_variables=cacheStatus,retryAfter", "5.6.3", WANTED))
                .containsExactly("load host 10.0.0.2:1099 runs JMeter 5.5, this controller 5.6.3: run"
                        + " ./run-tests.sh load-server from a checkout of the same version there");
    }

    @Test
    void aPropertyTheHostLacksIsNamedWithWhatItHas() {
        assertThat(Probe.compare("10.0.0.2:1099", "jmeter=5.6.3\tsample_variables=(unset)", "5.6.3", WANTED))
                .containsExactly("load host 10.0.0.2:1099 lacks the plan property sample_variables=cacheStatus,retryAfter"
                        + " (it has (unset)): start its JMeter with -q jmeter/suite.properties, as load-server does");
    }
}
