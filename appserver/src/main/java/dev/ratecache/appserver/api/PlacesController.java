package dev.ratecache.appserver.api;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ratecache.appserver.accounting.OriginAccounting;
import dev.ratecache.appserver.config.OriginProperties;
import dev.ratecache.appserver.database.DatabaseFailures;
import dev.ratecache.appserver.faults.RuntimeFaults;
import dev.ratecache.appserver.places.Place;
import dev.ratecache.appserver.places.PlaceStore;
import jakarta.servlet.http.HttpServletRequest;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code GET /places?code=1227} (the towns sharing a postal code, about 5) and
 * {@code GET /places?region=R042} (a region's towns, about 50): real database work behind a
 * cacheable answer, as the small and the medium query of the HAProxy and PostgREST experiment.
 * A JSON array ordered by town; {@code []} for a code or region with no towns, as a filter over a
 * collection answers. Other query parameters are ignored, so a client can vary them to get past
 * caches. Counted under the endpoint {@value OriginAccounting#PLACES}; its faults apply. In replay
 * mode {@code /places} is a replayed path like any other, as {@code /items} is.
 *
 * <p>The ETag is a hash of the body, so it changes only with the data; a request whose
 * If-None-Match matches it is still queried (the origin must learn the current rows to know) and
 * answered 304 without the body.
 */
@RestController
class PlacesController {

    // Postal codes are digits; regions letters and digits: nothing that needs escaping anywhere.
    private static final String CODE = "[0-9]{1,8}";
    private static final String REGION = "[A-Za-z0-9]{1,8}";

    private final PlaceStore places;
    private final OriginAccounting accounting;
    private final RuntimeFaults faults;
    private final DatabaseFailures failures;
    private final ObjectMapper json;
    private final String cacheControl;
    private final ReplayResponder replay;

    PlacesController(PlaceStore places, OriginAccounting accounting, RuntimeFaults faults, DatabaseFailures failures,
            ObjectMapper json, OriginProperties properties, ReplayResponder replay) {
        this.replay = replay;
        this.places = places;
        this.accounting = accounting;
        this.faults = faults;
        this.failures = failures;
        this.json = json;
        this.cacheControl = properties.sharedCacheControl(properties.places().maxAge(), properties.places().sMaxage());
    }

    @GetMapping("/places")
    ResponseEntity<?> query(@RequestParam(required = false) String code, @RequestParam(required = false) String region,
            @RequestHeader(name = HttpHeaders.IF_NONE_MATCH, required = false) List<String> ifNoneMatch,
            HttpServletRequest request) {
        if (replay.enabled()) {
            return replay.answer(request, ifNoneMatch);
        }
        try (OriginAccounting.Visit visit = accounting.start(OriginAccounting.PLACES)) {
            RequestThread.hold(faults.delayOf(OriginAccounting.PLACES).orElse(Duration.ZERO));
            if (faults.statusOf(OriginAccounting.PLACES).isPresent()) {
                return ResponseEntity.status(faults.statusOf(OriginAccounting.PLACES).get()).build();
            }
            if ((code == null) == (region == null)) {
                return badRequest("give one of code (e.g. /places?code=1227) or region (e.g. /places?region=R042)");
            }
            if (code != null && !code.matches(CODE) || region != null && !region.matches(REGION)) {
                return badRequest("code is 1 to 8 digits, region 1 to 8 letters or digits");
            }
            List<Place> rows;
            try {
                rows = code != null ? places.byCode(code) : places.byRegion(region);
            } catch (RuntimeException e) {
                if (DatabaseFailures.isDatabase(e)) {
                    return failures.answer(e);
                }
                throw e;
            }
            byte[] body = bytes(rows);
            String etag = "\"places-" + HexFormat.of().formatHex(sha256(body), 0, 8) + "\"";
            if (ifNoneMatch != null && EntityTags.anyMatches(ifNoneMatch, etag)) {
                visit.answeredNotModified();
                return ResponseEntity.status(HttpStatus.NOT_MODIFIED).eTag(etag)
                        .header(HttpHeaders.CACHE_CONTROL, cacheControl).build();
            }
            return ResponseEntity.ok().eTag(etag).header(HttpHeaders.CACHE_CONTROL, cacheControl)
                    .contentType(MediaType.APPLICATION_JSON).body(body);
        }
    }

    private byte[] bytes(List<Place> rows) {
        try {
            return json.writeValueAsBytes(rows);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static byte[] sha256(byte[] body) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(body);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java has SHA-256", e);
        }
    }

    private static ResponseEntity<?> badRequest(String problem) {
        return ResponseEntity.badRequest().contentType(MediaType.APPLICATION_JSON).body(Map.of("error", problem));
    }
}
