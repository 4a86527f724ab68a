package dev.ratecache.appserver.api;

import dev.ratecache.appserver.accounting.OriginAccounting;
import dev.ratecache.appserver.config.OriginProperties;
import dev.ratecache.appserver.faults.RuntimeFaults;
import dev.ratecache.appserver.replay.ReplayPaths;
import jakarta.servlet.http.HttpServletRequest;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.stereotype.Component;
import org.springframework.web.util.UriUtils;

/**
 * Answers a path of a replayed log as the paths file says: after its delay, with a body of its
 * size, fresh for {@code origin.replay.max-age}. Counted, and open to injected faults, as the
 * endpoint {@value OriginAccounting#REPLAY}.
 *
 * <p>The body is {@code application/octet-stream} so that nothing in front compresses or
 * transcodes it: the bytes on the wire stay the size the log recorded.
 */
@Component
class ReplayResponder {

    private final OriginProperties properties;
    private final ReplayPaths paths;
    private final OriginAccounting accounting;
    private final RuntimeFaults faults;
    private final byte[] block;

    ReplayResponder(OriginProperties properties, ReplayPaths paths, OriginAccounting accounting, RuntimeFaults faults) {
        this.properties = properties;
        this.paths = paths;
        this.accounting = accounting;
        this.faults = faults;
        this.block = ReplayBody.blockFor(properties.contentVersion());
    }

    boolean enabled() {
        return paths.enabled();
    }

    ResponseEntity<?> answer(HttpServletRequest request, List<String> ifNoneMatch) {
        ReplayPaths.Answer answer = paths.answerFor(listedForm(request.getRequestURI()));
        try (OriginAccounting.Visit visit = accounting.start(OriginAccounting.REPLAY)) {
            RequestThread.hold(faults.delayOf(OriginAccounting.REPLAY).orElse(answer.delay()));

            Optional<Integer> faultStatus = faults.statusOf(OriginAccounting.REPLAY);
            if (faultStatus.isPresent()) {
                return ResponseEntity.status(faultStatus.get()).build();
            }
            // The body depends only on its size and the content version, and so does the tag.
            String etag = EntityTags.of(OriginAccounting.REPLAY + "-" + answer.bodyBytes() + "b",
                    properties.contentVersion());
            String cacheControl = properties.publicCacheControl(answer.maxAge());
            if (ifNoneMatch != null && EntityTags.anyMatches(ifNoneMatch, etag)) {
                visit.answeredNotModified();
                return ResponseEntity.status(HttpStatus.NOT_MODIFIED).eTag(etag)
                        .header(HttpHeaders.CACHE_CONTROL, cacheControl).build();
            }
            return ResponseEntity.ok().eTag(etag).header(HttpHeaders.CACHE_CONTROL, cacheControl)
                    .contentType(MediaType.APPLICATION_OCTET_STREAM)
                    .body(new ReplayBody(answer.bodyBytes(), block));
        }
    }

    /**
     * The request's path as the file lists it: as sent, which is how nginx logs $request_uri, or
     * else percent-decoded, in case the log or an edit of the file wrote it decoded.
     */
    private String listedForm(String rawPath) {
        if (paths.lists(rawPath)) {
            return rawPath;
        }
        return UriUtils.decode(rawPath, StandardCharsets.UTF_8);
    }
}
