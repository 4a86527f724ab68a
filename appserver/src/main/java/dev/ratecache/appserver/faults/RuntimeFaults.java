package dev.ratecache.appserver.faults;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.stereotype.Component;

/**
 * Faults injected through the management port, so the suite can show the tiers serving stale
 * content while the origin errors or is too slow. They last until {@link #clear()}.
 */
@Component
public class RuntimeFaults {

    private final Map<String, Fault> faults = new ConcurrentHashMap<>();

    /** Adds the parts that {@code fault} sets to whatever is already injected into the endpoint. */
    public Fault inject(String endpoint, Fault fault) {
        return faults.merge(endpoint, fault, Fault::with);
    }

    public Optional<Integer> statusOf(String endpoint) {
        return Optional.ofNullable(faults.getOrDefault(endpoint, Fault.NONE).status());
    }

    public Optional<Duration> delayOf(String endpoint) {
        return Optional.ofNullable(faults.getOrDefault(endpoint, Fault.NONE).delay());
    }

    public void clear() {
        faults.clear();
    }
}
