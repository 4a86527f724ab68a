package dev.ratecache.suite.predict;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.accesslog.ScheduledRequest;
import dev.ratecache.model.Freshness;
import dev.ratecache.model.OriginSpec;
import dev.ratecache.suite.Repo;
import dev.ratecache.suite.matrix.Cell;
import dev.ratecache.suite.matrix.Plan;
import dev.ratecache.suite.matrix.Profile;
import dev.ratecache.suite.nginx.NginxRenderer;
import dev.ratecache.suite.nginx.Tier;
import dev.ratecache.suite.origin.SpringDuration;
import dev.ratecache.suite.stack.StackPorts;
import dev.ratecache.suite.switches.StackSwitches;
import dev.ratecache.testkit.TestDirs;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

/**
 * The model is given the origin and the edge cache the stack really runs: the figures are read here
 * from the stack's own files (the origin's application.yml in the checkout, the profile's origin
 * arguments, the rendered nginx config), so a figure the predictor held apart from them would show.
 */
class PredictorMatchesTheStackTest {
    private static final Pattern ORIGIN_ARG = Pattern.compile("--origin\\.endpoints\\.(\\w+)\\.(delay|max-age)=(\\S+)");
    private static final Pattern INACTIVE = Pattern.compile("(?m)^\\s*proxy_cache_path\\s.*\\binactive=(\\d+)(ms|s|m|h|d)?\\b");

    @Test
    void theDefaultProfilesOriginHasTheDelaysAndLifetimesOfApplicationYml() throws IOException {
        Map<?, ?> origin = (Map<?, ?>) applicationYml().get("origin");
        Map<?, ?> endpoints = (Map<?, ?>) origin.get("endpoints");
        long staleSec = seconds(origin.get("stale-while-revalidate"));
        long staleIfErrorSec = seconds(origin.get("stale-if-error"));

        OriginSpec spec = Predictor.origin(input(Cell.of(Plan.LOAD, Cell.NO_CACHING).build(), Profile.DEFAULT, null));

        assertThat(spec.paths()).hasSize(endpoints.size());
        endpoints.forEach((name, settings) -> {
            Map<?, ?> e = (Map<?, ?>) settings;
            assertThat(spec.paths().get("/" + name).serviceMs()).as("/%s's delay", name).isEqualTo(millis(e.get("delay")));
            assertThat(spec.paths().get("/" + name).freshness()).as("/%s's freshness", name)
                    .isEqualTo(new Freshness(seconds(e.get("max-age")), staleSec, staleIfErrorSec));
        });
        // The slow path the load plan's cache lock and queue hinge on, named for the reader.
        assertThat(spec.paths().get("/tortoise").serviceMs()).isEqualTo(millis(((Map<?, ?>) endpoints.get("tortoise")).get("delay")));
    }

    @Test
    void theQuickProfilesOriginIsTheOneItsArgumentsStart() {
        OriginSpec spec = Predictor.origin(input(Cell.of(Plan.LOAD, Cell.NO_CACHING).build(), Profile.QUICK, null));

        List<String> args = Profile.QUICK.originArgs();
        assertThat(args).isNotEmpty();
        for (String arg : args) {
            Matcher m = ORIGIN_ARG.matcher(arg);
            assertThat(m.matches()).as(arg).isTrue();
            var path = spec.paths().get("/" + m.group(1));
            if (m.group(2).equals("delay")) {
                assertThat(path.serviceMs()).as(arg).isEqualTo(millis(m.group(3)));
            } else {
                assertThat(path.freshness().maxAgeSec()).as(arg).isEqualTo(seconds(m.group(3)));
            }
        }
    }

    @Test
    void aReplayedPathTheLogGaveNoTimeTakesTheOriginsDefaultDelay() throws IOException {
        Map<?, ?> replay = (Map<?, ?>) ((Map<?, ?>) applicationYml().get("origin")).get("replay");
        List<ScheduledRequest> schedule = List.of(new ScheduledRequest(0, "127.16.0.1", "GET", "/untimed", "10.0.0.1"));
        Plan plan = Plan.replay(Path.of("schedule.csv"), 1, 1, 1);

        OriginSpec spec = Predictor.origin(input(Cell.of(plan, Cell.NO_CACHING).build(), Profile.DEFAULT,
                new Predictor.ReplayTraffic(schedule, Map.of(), 10)));

        assertThat(spec.paths().get("/untimed").serviceMs()).isEqualTo(millis(replay.get("default-delay")));
    }

    @Test
    void theModelsEdgeDropsAnUnusedEntryWhenTheRenderedEdgeDoes() throws IOException {
        StackSwitches switches = new StackSwitches();
        Path conf = TestDirs.fresh(getClass(), "front");
        new NginxRenderer(Repo.nginxTemplates()).render(Tier.FRONT, switches.spec(new StackPorts()), conf);
        Matcher found = null;
        try (Stream<Path> files = Files.walk(conf)) {
            for (Path file : files.filter(Files::isRegularFile).toList()) {
                Matcher m = INACTIVE.matcher(Files.readString(file));
                if (m.find()) {
                    found = m;
                }
            }
        }
        assertThat(found).as("a proxy_cache_path with inactive= in the rendered front end").isNotNull();
        long renderedMs = nginxTimeMs(Long.parseLong(found.group(1)), found.group(2));

        Cell cell = Cell.of(Plan.STRESS, Cell.SERVER_CACHE).serverCache().build();
        long modelMs = Predictor.spec(input(cell, Profile.DEFAULT, null)).cache().inactiveMs();

        assertThat(modelMs).isEqualTo(renderedMs);
    }

    @Test
    void aFloodWithoutItsPropertiesSetIsTheFloodItsPlanFileDeclares() throws IOException {
        // flood.jmx: ${__P(rate,300)}, ${__P(ramp,5)}, ${__P(hold,10)}, ${__P(sources,1)}, ${__P(path,/hare)}.
        String jmx = Files.readString(Plan.FLOOD.file());
        Cell cell = Cell.of(Plan.FLOOD, Cell.NO_CACHING).build();
        Predictor.Input bare = new Predictor.Input(cell, cell.apply(new StackSwitches()), Map.of(), Profile.DEFAULT, 10,
                null, 0, 0).withPlanDefaults();

        var arrivals = ((dev.ratecache.model.Workload.Open) Predictor.workload(bare, 0, 1)).arrivals();

        assertThat(jmx).contains("${__P(rate,300)}", "${__P(ramp,5)}", "${__P(hold,10)}", "${__P(path,/hare)}");
        // Five one-second steps up to 300/s (60, 120, ... 300: 900), then ten seconds at 300.
        assertThat(arrivals).hasSize(900 + 10 * 300);
        assertThat(arrivals).allSatisfy(a -> assertThat(a.path()).isEqualTo("/hare"));
    }

    private static Predictor.Input input(Cell cell, Profile profile, Predictor.ReplayTraffic replay) {
        return new Predictor.Input(cell, cell.apply(new StackSwitches()), cell.plan().sizes(profile), profile, 10, replay, 0, 0);
    }

    private static Map<?, ?> applicationYml() throws IOException {
        try (InputStream in = Files.newInputStream(Repo.root().resolve("appserver/src/main/resources/application.yml"))) {
            return new Yaml().load(in);
        }
    }

    private static long millis(Object springDuration) {
        return SpringDuration.parse(String.valueOf(springDuration), ChronoUnit.MILLIS).toMillis();
    }

    private static long seconds(Object springDuration) {
        return SpringDuration.parse(String.valueOf(springDuration), ChronoUnit.SECONDS).toSeconds();
    }

    /** nginx's time units; a bare number is seconds. */
    private static long nginxTimeMs(long n, String unit) {
        return switch (unit == null ? "s" : unit) {
            case "ms" -> n;
            case "s" -> TimeUnit.SECONDS.toMillis(n);
            case "m" -> TimeUnit.MINUTES.toMillis(n);
            case "h" -> TimeUnit.HOURS.toMillis(n);
            default -> TimeUnit.DAYS.toMillis(n);
        };
    }
}
