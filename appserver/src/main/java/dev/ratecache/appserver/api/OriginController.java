package dev.ratecache.appserver.api;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ratecache.appserver.accounting.OriginAccounting;
import dev.ratecache.appserver.config.EndpointProperties;
import dev.ratecache.appserver.config.OriginProperties;
import dev.ratecache.appserver.faults.RuntimeFaults;
import jakarta.servlet.http.HttpServletRequest;
import java.net.URI;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;

/**
 * Serves every configured endpoint at {@code /<name>}; query strings are ignored, so the suite can
 * vary them to get past caches and still reach the same endpoint. In replay mode a name that is
 * not an endpoint is a path of the replayed log ({@link ReplayResponder}).
 *
 * <p>The delay is spent holding the request thread on purpose ({@link RequestThread}).
 */
@RestController
class OriginController {

    private final OriginProperties properties;
    private final OriginAccounting accounting;
    private final RuntimeFaults faults;
    private final Clock clock;
    private final ObjectMapper json;
    private final ReplayResponder replay;

    OriginController(OriginProperties properties, OriginAccounting accounting, RuntimeFaults faults,
            ObjectMapper json, ReplayResponder replay) {
        this.properties = properties;
        this.replay = replay;
        this.accounting = accounting;
        this.faults = faults;
        this.clock = Clock.systemUTC();
        this.json = json;
    }

    @GetMapping("/{endpoint}")
    ResponseEntity<?> serve(@PathVariable String endpoint, HttpServletRequest request,
            @RequestHeader(name = HttpHeaders.IF_NONE_MATCH, required = false) List<String> ifNoneMatch,
            @RequestHeader(name = HttpHeaders.ACCEPT_ENCODING, required = false) List<String> acceptEncoding) {
        EndpointProperties config = properties.endpoints().get(endpoint);
        if (config == null && replay.enabled()) {
            return replay.answer(request, ifNoneMatch);
        }
        if (config == null) {
            throw new ResponseStatusException(HttpStatus.NOT_FOUND);
        }
        try (OriginAccounting.Visit visit = accounting.start(endpoint)) {
            // Even a 304 waits: the origin models an app that must do the work to learn the current
            // version, so revalidation saves the body and bandwidth, not origin time.
            RequestThread.hold(faults.delayOf(endpoint).orElse(config.delay()));

            Optional<Integer> faultStatus = faults.statusOf(endpoint);
            if (faultStatus.isPresent()) {
                // No cache headers, so nothing in front may store the error in place of the content.
                return ResponseEntity.status(faultStatus.get()).build();
            }
            boolean gzip = config.gzip() && GzipRepresentation.accepted(acceptEncoding);
            String identityTag = EntityTags.of(endpoint, properties.contentVersion());
            String etag = gzip ? GzipRepresentation.entityTag(identityTag) : identityTag;
            if (ifNoneMatch != null && EntityTags.anyMatches(ifNoneMatch, etag)) {
                visit.answeredNotModified();
                return withCacheHeaders(ResponseEntity.status(HttpStatus.NOT_MODIFIED), config, etag).build();
            }
            ResponseEntity.BodyBuilder ok = withCacheHeaders(ResponseEntity.ok(), config, etag);
            config.setCookieHeader().ifPresent(cookie -> ok.header(HttpHeaders.SET_COOKIE, cookie));
            ok.contentType(MediaType.APPLICATION_JSON);
            OriginResponse body = new OriginResponse(endpoint, properties.contentVersion(), clock.instant());
            if (gzip) {
                return ok.header(HttpHeaders.CONTENT_ENCODING, "gzip").body(GzipRepresentation.compress(bytes(body)));
            }
            return ok.body(body);
        }
    }

    private byte[] bytes(OriginResponse body) {
        try {
            return json.writeValueAsBytes(body);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * A write to an endpoint that accepts them: the same delay, faults and counting as a read, then
     * 204, or 201 with a Location where one is configured. Nothing is stored; the point is the
     * status, which tells the caches in front that the resource has changed.
     * <p>
     * Any unsafe method is a write, extension methods too (Spring hands a method it does not know
     * to a mapping that names none): GET and HEAD go to {@link #serve}, OPTIONS and TRACE to Spring's
     * and the servlet's own answers.
     */
    @RequestMapping(path = "/{endpoint}")
    ResponseEntity<Void> write(@PathVariable String endpoint) {
        EndpointProperties config = properties.endpoints().get(endpoint);
        if (config == null) {
            throw new ResponseStatusException(HttpStatus.NOT_FOUND);
        }
        if (!config.writes()) {
            return ResponseEntity.status(HttpStatus.METHOD_NOT_ALLOWED).allow(HttpMethod.GET, HttpMethod.HEAD).build();
        }
        try (OriginAccounting.Visit visit = accounting.start(endpoint)) {
            RequestThread.hold(faults.delayOf(endpoint).orElse(config.delay()));
            Optional<Integer> faultStatus = faults.statusOf(endpoint);
            if (faultStatus.isPresent()) {
                return ResponseEntity.status(faultStatus.get()).build();
            }
            return config.writeLocationHeader()
                    .map(location -> ResponseEntity.created(URI.create(location)).<Void>build())
                    .orElseGet(() -> ResponseEntity.noContent().build());
        }
    }

    /**
     * The headers that a 200 and a 304 share: validators, freshness, Vary, and the endpoint's
     * configured extras.
     */
    private ResponseEntity.BodyBuilder withCacheHeaders(ResponseEntity.BodyBuilder response,
            EndpointProperties config, String etag) {
        response.eTag(etag);
        properties.cacheControlOf(config).ifPresent(value -> response.header(HttpHeaders.CACHE_CONTROL, value));
        if (config.gzip()) {
            // Both representations say so, the identity one too: a cache must not hand it to a
            // client that asked for gzip, nor the gzip one to a client that did not.
            response.header(HttpHeaders.VARY, HttpHeaders.ACCEPT_ENCODING);
        }
        config.xFrameOptionsHeader().ifPresent(value -> response.header("X-Frame-Options", value));
        config.contentSecurityPolicyHeader().ifPresent(value -> response.header("Content-Security-Policy", value));
        return ConfiguredHeaders.add(response, config, clock);
    }
}
