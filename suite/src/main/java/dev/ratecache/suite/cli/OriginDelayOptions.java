package dev.ratecache.suite.cli;

import dev.ratecache.suite.origin.Endpoint;
import dev.ratecache.suite.origin.OriginDefaults;
import dev.ratecache.suite.origin.OriginDelays;
import dev.ratecache.suite.origin.SpringDuration;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Option;

/** --origin-delay: the suite's own origin made slower or faster on one endpoint, for the run command. */
final class OriginDelayOptions {
    /** Longer than a rate window by far: a longer delay measures the client's timeouts, not the tiers. */
    private static final Duration LONGEST = Duration.ofMinutes(1);

    @Option(names = "--origin-delay", paramLabel = "ENDPOINT=DURATION",
            description = "How long the suite's origin takes to answer one of its endpoints (hare, tortoise, snail),"
                    + " over the profile's own delay, 0 to 1m (a bare number is milliseconds); repeatable, e.g."
                    + " --origin-delay hare=150ms: a slower app server as one switch, to compare with a run without it."
                    + " Default: the profile's (hare 100ms, tortoise 2s, snail 5s; a tenth of each in quick).")
    List<String> given = new ArrayList<>();

    /** The refusals of the values given, one line each. */
    List<String> problems() {
        List<String> problems = new ArrayList<>();
        List<String> names = OriginDefaults.get().endpoints().stream().map(Endpoint::name).toList();
        for (String g : given) {
            int eq = g.indexOf('=');
            String name = eq < 0 ? g : g.substring(0, eq);
            if (eq < 0 || !names.contains(name)) {
                problems.add("--origin-delay " + g + ": use ENDPOINT=DURATION with ENDPOINT one of "
                        + String.join(", ", names) + ", e.g. --origin-delay hare=150ms");
            } else if (delay(g.substring(eq + 1)) == null) {
                problems.add("--origin-delay " + g + ": the delay must be a duration from 0 to 1m in whole"
                        + " milliseconds, such as 150ms or 2s");
            }
        }
        return problems;
    }

    /** Whether any was given, which a user's own origin (--origin URL) does not take. */
    boolean given() {
        return !given.isEmpty();
    }

    /** What was chosen; only once {@link #problems()} found none. A later setting of an endpoint wins. */
    OriginDelays chosen() {
        Map<String, Duration> byName = new LinkedHashMap<>();
        for (String g : given) {
            int eq = g.indexOf('=');
            byName.put(g.substring(0, eq), delay(g.substring(eq + 1)));
        }
        return new OriginDelays(byName);
    }

    private static Duration delay(String text) {
        return SpringDuration.parseWithin(text, ChronoUnit.MILLIS, Duration.ZERO, LONGEST).orElse(null);
    }
}
