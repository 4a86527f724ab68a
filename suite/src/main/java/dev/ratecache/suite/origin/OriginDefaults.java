package dev.ratecache.suite.origin;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/**
 * The suite's origin as appserver's application.yml sets it up, read from the copy the build puts
 * beside this class (suite/pom.xml). The predictions and the command-line defaults take the origin's
 * figures from here, so that a default changed in the origin cannot leave a stale copy behind.
 *
 * @param endpoints            the endpoints, in the file's order
 * @param staleWhileRevalidate {@code origin.stale-while-revalidate}: every endpoint's permission to a
 *                             cache to answer stale while it refreshes
 * @param staleIfError         {@code origin.stale-if-error}: every endpoint's permission to a cache to answer
 *                             stale when the origin fails
 * @param replayDefaultDelay   {@code origin.replay.default-delay}: a replayed path's delay when the log gave none
 * @param replayMaxAge         {@code origin.replay.max-age}: every replayed path's freshness
 * @param threads              {@code server.tomcat.threads.max}: the request threads, the origin's capacity
 * @param poolSize             {@code origin.database.pool-size}: the connections of its database pool
 * @param acquireTimeout       {@code origin.database.acquire-timeout}: a request's longest wait for one, then 504
 */
public record OriginDefaults(List<Endpoint> endpoints, Duration staleWhileRevalidate, Duration staleIfError,
        Duration replayDefaultDelay,
        Duration replayMaxAge, int threads, int poolSize, Duration acquireTimeout) {

    public OriginDefaults {
        endpoints = List.copyOf(endpoints);
    }

    /** The origin's defaults as this build of the suite was given them. */
    public static OriginDefaults get() {
        return Loaded.DEFAULTS;
    }

    private static final class Loaded {
        static final OriginDefaults DEFAULTS = load();

        private static OriginDefaults load() {
            try (InputStream yml = OriginDefaults.class.getResourceAsStream("application.yml")) {
                if (yml == null) {
                    throw new IllegalStateException("appserver's application.yml is missing from the suite's classes:"
                            + " build with ./mvnw -B package -DskipTests");
                }
                return read(yml);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    /**
     * Reads an application.yml. A bare number is in the unit the origin binds that property in (its
     * {@code @DurationUnit}): milliseconds for delays, seconds for lifetimes.
     *
     * @throws IllegalStateException when the file lacks one of the values
     */
    public static OriginDefaults read(InputStream yml) {
        Map<?, ?> root = new Yaml(new SafeConstructor(new LoaderOptions())).load(yml);
        List<Endpoint> endpoints = new ArrayList<>();
        Map<?, ?> configured = (Map<?, ?>) at(root, "origin", "endpoints");
        configured.keySet().forEach(name -> endpoints.add(new Endpoint(String.valueOf(name),
                duration(root, ChronoUnit.MILLIS, "origin", "endpoints", name, "delay"),
                duration(root, ChronoUnit.SECONDS, "origin", "endpoints", name, "max-age"))));
        return new OriginDefaults(endpoints,
                duration(root, ChronoUnit.SECONDS, "origin", "stale-while-revalidate"),
                duration(root, ChronoUnit.SECONDS, "origin", "stale-if-error"),
                duration(root, ChronoUnit.MILLIS, "origin", "replay", "default-delay"),
                duration(root, ChronoUnit.SECONDS, "origin", "replay", "max-age"),
                Integer.parseInt(String.valueOf(at(root, "server", "tomcat", "threads", "max"))),
                Integer.parseInt(String.valueOf(at(root, "origin", "database", "pool-size"))),
                duration(root, ChronoUnit.MILLIS, "origin", "database", "acquire-timeout"));
    }

    private static Duration duration(Map<?, ?> root, ChronoUnit unitIfNone, Object... keys) {
        return SpringDuration.parse(String.valueOf(at(root, keys)), unitIfNone);
    }

    private static Object at(Map<?, ?> root, Object... keys) {
        Object node = root;
        for (Object key : keys) {
            node = node instanceof Map<?, ?> map ? map.get(key) : null;
            if (node == null) {
                List<String> names = new ArrayList<>();
                for (Object k : keys) {
                    names.add(String.valueOf(k));
                }
                throw new IllegalStateException("appserver's application.yml sets no " + String.join(".", names));
            }
        }
        return node;
    }
}
