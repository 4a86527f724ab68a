package dev.ratecache.appserver.api;

import jakarta.servlet.http.HttpServletRequest;
import java.util.List;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;

/**
 * Any path that is not a configured endpoint: answered by the replay mode when it is on, 404 as
 * ever when it is off. A single segment such as {@code /about} matches {@link OriginController}'s
 * {@code /{endpoint}} first, which hands it over the same way.
 */
@RestController
class ReplayController {

    private final ReplayResponder replay;

    ReplayController(ReplayResponder replay) {
        this.replay = replay;
    }

    @GetMapping("/**")
    ResponseEntity<?> serve(HttpServletRequest request,
            @RequestHeader(name = HttpHeaders.IF_NONE_MATCH, required = false) List<String> ifNoneMatch) {
        if (!replay.enabled()) {
            throw new ResponseStatusException(HttpStatus.NOT_FOUND);
        }
        return replay.answer(request, ifNoneMatch);
    }
}
