package dev.ratecache.suite.origin;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Delays of the suite's origin's endpoints set for one run ({@code --origin-delay hare=150ms}), over
 * what the profile gives them: a slower or faster app server as one switch, so that a run can be
 * compared with one whose origin was not changed.
 *
 * @param byName each changed endpoint's delay, by its name, in the order given
 */
public record OriginDelays(Map<String, Duration> byName) {
    public static final OriginDelays NONE = new OriginDelays(Map.of());

    public OriginDelays {
        byName = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(byName));
    }

    public boolean isEmpty() {
        return byName.isEmpty();
    }

    /** {@code endpoints} with the delays changed here. */
    public List<Endpoint> apply(List<Endpoint> endpoints) {
        return endpoints.stream().map(e -> byName.containsKey(e.name())
                ? new Endpoint(e.name(), byName.get(e.name()), e.maxAge()) : e).toList();
    }

    /** The origin's arguments that set them; they follow and so override the profile's ({@link #lastWins}). */
    public List<String> originArgs() {
        List<String> args = new ArrayList<>();
        byName.forEach((name, delay) -> args.add("--origin.endpoints." + name + ".delay=" + SpringDuration.format(delay)));
        return args;
    }

    /** In words, for the run's description: "/hare 150 ms". */
    public String describe() {
        return byName.entrySet().stream().map(e -> "/" + e.getKey() + " " + e.getValue().toMillis() + " ms")
                .collect(Collectors.joining(", "));
    }

    /**
     * Spring Boot arguments with a property given twice reduced to its last value, in the first one's
     * place. Spring joins a repeated command-line property with commas ("10ms,150ms"), which no
     * duration binds, so a later setting must replace an earlier one, not follow it.
     */
    public static List<String> lastWins(List<String> args) {
        Map<String, String> byKey = new LinkedHashMap<>();
        for (String arg : args) {
            int eq = arg.indexOf('=');
            String key = arg.startsWith("--") && eq > 2 ? arg.substring(0, eq).toLowerCase(Locale.ROOT) : arg;
            byKey.put(key, arg);
        }
        return List.copyOf(byKey.values());
    }
}
