package dev.ratecache.appserver.api;

import dev.ratecache.appserver.accounting.OriginAccounting;
import dev.ratecache.appserver.config.EndpointProperties;
import dev.ratecache.appserver.config.OriginProperties;
import dev.ratecache.appserver.faults.RuntimeFaults;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;

/**
 * Serves every configured endpoint at {@code /<name>}; query strings are ignored, so the suite can
 * vary them to get past caches and still reach the same endpoint.
 *
 * <p>The delay is spent sleeping on the request thread on purpose: the fixed Tomcat thread pool is
 * the origin capacity that the tiers in front are measured against.
 */
@RestController
class OriginController {

    private final OriginProperties properties;
    private final OriginAccounting accounting;
    private final RuntimeFaults faults;
    private final Clock clock;

    OriginController(OriginProperties properties, OriginAccounting accounting, RuntimeFaults faults) {
        this.properties = properties;
        this.accounting = accounting;
        this.faults = faults;
        this.clock = Clock.systemUTC();
    }

    @GetMapping("/{endpoint}")
    ResponseEntity<OriginResponse> serve(@PathVariable String endpoint,
            @RequestHeader(name = HttpHeaders.IF_NONE_MATCH, required = false) List<String> ifNoneMatch) {
        EndpointProperties config = properties.endpoints().get(endpoint);
        if (config == null) {
            throw new ResponseStatusException(HttpStatus.NOT_FOUND);
        }
        try (OriginAccounting.Visit visit = accounting.start(endpoint)) {
            // Even a 304 waits: the origin models an app that must do the work to learn the current
            // version, so revalidation saves the body and bandwidth, not origin time.
            sleep(faults.delayOf(endpoint).orElse(config.delay()));

            Optional<Integer> faultStatus = faults.statusOf(endpoint);
            if (faultStatus.isPresent()) {
                // No cache headers, so nothing in front may store the error in place of the content.
                return ResponseEntity.status(faultStatus.get()).build();
            }
            String etag = EntityTags.of(endpoint, properties.contentVersion());
            if (ifNoneMatch != null && EntityTags.anyMatches(ifNoneMatch, etag)) {
                visit.answeredNotModified();
                return withCacheHeaders(ResponseEntity.status(HttpStatus.NOT_MODIFIED), config, etag).build();
            }
            ResponseEntity.BodyBuilder ok = withCacheHeaders(ResponseEntity.ok(), config, etag);
            config.setCookieHeader().ifPresent(cookie -> ok.header(HttpHeaders.SET_COOKIE, cookie));
            return ok.contentType(MediaType.APPLICATION_JSON)
                    .body(new OriginResponse(endpoint, properties.contentVersion(), clock.instant()));
        }
    }

    private ResponseEntity.BodyBuilder withCacheHeaders(ResponseEntity.BodyBuilder response,
            EndpointProperties config, String etag) {
        response.eTag(etag);
        properties.cacheControlOf(config).ifPresent(value -> response.header(HttpHeaders.CACHE_CONTROL, value));
        return response;
    }

    private static void sleep(Duration delay) {
        try {
            TimeUnit.NANOSECONDS.sleep(delay.toNanos());
        }
        catch (InterruptedException ex) {
            // Only a shutdown interrupts; answer anyway and let the container finish stopping.
            Thread.currentThread().interrupt();
        }
    }
}
