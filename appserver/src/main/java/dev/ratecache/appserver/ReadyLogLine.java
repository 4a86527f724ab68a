package dev.ratecache.appserver;

import dev.ratecache.appserver.config.OriginProperties;
import dev.ratecache.appserver.appcache.RedisWarmUp;
import dev.ratecache.appserver.config.AppCacheMode;
import dev.ratecache.appserver.config.ItemsProperties;
import dev.ratecache.appserver.config.ReplayProperties;
import dev.ratecache.appserver.database.Database;
import dev.ratecache.appserver.places.PlaceSeed;
import dev.ratecache.appserver.items.ItemSeed;
import dev.ratecache.appserver.replay.ReplayPaths;
import java.util.StringJoiner;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.autoconfigure.web.ServerProperties;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.event.EventListener;
import org.springframework.core.env.Environment;
import org.springframework.stereotype.Component;

/**
 * Logs one line once the origin takes requests; the suite starts it many times, so Spring Boot's
 * own start-up chatter is turned down in application.yml and this line says what matters. Only a
 * web application takes requests (the configuration tests start it without a server).
 */
@Component
@ConditionalOnWebApplication
class ReadyLogLine {

    private static final Log log = LogFactory.getLog(ReadyLogLine.class);

    private final OriginProperties origin;
    private final ServerProperties server;
    private final ReplayPaths replay;
    private final ItemSeed seed;
    private final ObjectProvider<RedisWarmUp> redis;
    private final Database database;
    private final PlaceSeed places;

    ReadyLogLine(OriginProperties origin, ServerProperties server, ReplayPaths replay, ItemSeed seed,
            ObjectProvider<RedisWarmUp> redis, Database database, PlaceSeed places) {
        this.database = database;
        this.places = places;
        this.origin = origin;
        this.redis = redis;
        this.server = server;
        this.replay = replay;
        this.seed = seed;
    }

    @EventListener
    void onReady(ApplicationReadyEvent event) {
        Environment environment = event.getApplicationContext().getEnvironment();
        StringJoiner endpoints = new StringJoiner("; ");
        origin.endpoints().forEach((name, endpoint) -> endpoints.add("/" + name + " " + endpoint.delay().toMillis()
                + " ms (" + origin.cacheControlOf(endpoint).orElse("no Cache-Control") + ")"));
        log.info("origin ready in " + event.getTimeTaken().toMillis() + " ms: port "
                + environment.getProperty("local.server.port") + " with "
                + server.getTomcat().getThreads().getMax() + " request threads, management port "
                + environment.getProperty("local.management.port") + ", content " + origin.contentVersion()
                + ", endpoints: " + endpoints + items(environment) + places() + "; database " + database.product()
                + ", a pool of " + origin.database().poolSize() + " connections, acquire timeout "
                + origin.database().acquireTimeout().toMillis() + " ms" + replayMode());
    }

    private String items(Environment environment) {
        ItemsProperties items = origin.items();
        String appCache = (origin.appCache() == AppCacheMode.REDIS)
                ? "redis at " + environment.getProperty("spring.data.redis.host") + ":"
                        + environment.getProperty("spring.data.redis.port") + " ("
                        + redis.getObject().outcome() + "), TTL " + origin.appCacheTtl().toMillis() + " ms"
                : "off";
        return "; /items/{id}: " + seed.count() + " items seeded in " + seed.tookMillis() + " ms, query cost "
                + items.queryCost().toMillis() + " ms (" + origin.publicCacheControl(items.maxAge())
                + "), app cache " + appCache;
    }

    private String places() {
        return "; /places: " + places.rows() + " rows " + (places.seeded() ? "seeded" : "found") + " ("
                + origin.sharedCacheControl(origin.places().maxAge(), origin.places().sMaxage()) + ")";
    }

    private String replayMode() {
        if (!replay.enabled()) {
            return "";
        }
        ReplayProperties mode = origin.replay();
        return "; replay: any other path, " + replay.size() + " listed in " + replay.file().orElseThrow()
                + " (otherwise " + mode.defaultDelay().toMillis() + " ms, " + mode.defaultBodyBytes() + " bytes; "
                + origin.publicCacheControl(mode.maxAge()) + ")";
    }
}
