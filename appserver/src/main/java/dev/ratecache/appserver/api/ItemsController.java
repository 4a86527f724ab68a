package dev.ratecache.appserver.api;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ratecache.appserver.accounting.ItemsAccounting;
import dev.ratecache.appserver.accounting.OriginAccounting;
import dev.ratecache.appserver.config.OriginProperties;
import dev.ratecache.appserver.database.DatabaseFailures;
import dev.ratecache.appserver.faults.RuntimeFaults;
import dev.ratecache.appserver.items.Item;
import dev.ratecache.appserver.items.ItemCatalog;
import jakarta.servlet.http.HttpServletRequest;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Function;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code /items/{id}}: a resource that writes change, backed by the database ({@link ItemCatalog}).
 *
 * <p>Each answer is counted under the endpoint {@value OriginAccounting#ITEMS} and by method and
 * status; faults injected into {@code items} apply as to any endpoint. A 304 still reads the item:
 * the origin must learn the current version to know the client's is current. In replay mode a GET
 * of {@code /items/...} is a replayed path like any other.
 */
@RestController
@RequestMapping("/items")
class ItemsController {

    /** Long enough for any name a test or a load plan sends, short enough to fit the column. */
    private static final int MAX_NAME_LENGTH = 200;

    private final ItemCatalog catalog;
    private final OriginAccounting accounting;
    private final ItemsAccounting items;
    private final RuntimeFaults faults;
    private final ObjectMapper json;
    private final String cacheControl;
    private final ReplayResponder replay;
    private final DatabaseFailures failures;

    ItemsController(ItemCatalog catalog, OriginAccounting accounting, ItemsAccounting items, RuntimeFaults faults,
            ObjectMapper json, OriginProperties properties, ReplayResponder replay, DatabaseFailures failures) {
        this.replay = replay;
        this.failures = failures;
        this.catalog = catalog;
        this.accounting = accounting;
        this.items = items;
        this.faults = faults;
        this.json = json;
        this.cacheControl = properties.publicCacheControl(properties.items().maxAge());
    }

    @GetMapping("/{id}")
    ResponseEntity<?> read(@PathVariable String id, HttpServletRequest request,
            @RequestHeader(name = HttpHeaders.IF_NONE_MATCH, required = false) List<String> ifNoneMatch) {
        if (replay.enabled()) {
            // The replayed site owns every path it may have logged, /items/... included, as before
            // this resource existed: the paths file, not the origin's own content, decides a replay.
            return replay.answer(request, ifNoneMatch);
        }
        return counted(request, visit -> {
            OptionalLong itemId = idOf(id);
            Optional<Item> item = itemId.isPresent() ? catalog.find(itemId.getAsLong()) : Optional.empty();
            if (item.isEmpty()) {
                return notFound();
            }
            String etag = item.get().entityTag();
            if (ifNoneMatch != null && EntityTags.anyMatches(ifNoneMatch, etag)) {
                visit.answeredNotModified();
                return ResponseEntity.status(HttpStatus.NOT_MODIFIED).eTag(etag)
                        .header(HttpHeaders.CACHE_CONTROL, cacheControl).build();
            }
            return ResponseEntity.ok().eTag(etag).header(HttpHeaders.CACHE_CONTROL, cacheControl)
                    .contentType(MediaType.APPLICATION_JSON).body(item.get());
        });
    }

    /** Renames the item; the answer is the new version. */
    @PutMapping("/{id}")
    ResponseEntity<?> update(@PathVariable String id, @RequestBody(required = false) String body,
            HttpServletRequest request) {
        return counted(request, visit -> {
            OptionalLong itemId = idOf(id);
            if (itemId.isEmpty()) {
                return notFound();
            }
            Named named = nameIn(body);
            if (named.problem() != null) {
                return badRequest(named.problem());
            }
            return catalog.update(itemId.getAsLong(), named.name())
                    .<ResponseEntity<?>>map(item -> ResponseEntity.ok().eTag(item.entityTag())
                            .contentType(MediaType.APPLICATION_JSON).body(item))
                    .orElseGet(ItemsController::notFound);
        });
    }

    @DeleteMapping("/{id}")
    ResponseEntity<?> delete(@PathVariable String id, HttpServletRequest request) {
        return counted(request, visit -> {
            OptionalLong itemId = idOf(id);
            if (itemId.isEmpty() || !catalog.delete(itemId.getAsLong())) {
                return notFound();
            }
            return ResponseEntity.noContent().build();
        });
    }

    @PostMapping
    ResponseEntity<?> create(@RequestBody(required = false) String body, HttpServletRequest request) {
        return counted(request, visit -> {
            Named named = nameIn(body);
            if (named.problem() != null) {
                return badRequest(named.problem());
            }
            Item item = catalog.create(named.name());
            return ResponseEntity.created(URI.create("/items/" + item.id())).eTag(item.entityTag())
                    .contentType(MediaType.APPLICATION_JSON).body(item);
        });
    }

    private ResponseEntity<?> counted(HttpServletRequest request,
            Function<OriginAccounting.Visit, ResponseEntity<?>> answer) {
        try (OriginAccounting.Visit visit = accounting.start(OriginAccounting.ITEMS)) {
            RequestThread.hold(faults.delayOf(OriginAccounting.ITEMS).orElse(Duration.ZERO));
            ResponseEntity<?> response = faults.statusOf(OriginAccounting.ITEMS)
                    // No cache headers, so nothing in front may store the error in place of the item.
                    .<ResponseEntity<?>>map(status -> ResponseEntity.status(status).build())
                    .orElseGet(() -> answerOrDatabaseFailure(answer, visit));
            items.answered(request.getMethod(), response.getStatusCode().value());
            return response;
        }
    }

    // A request the database could not serve is answered 504 or 503 and counted like any other answer.
    private ResponseEntity<?> answerOrDatabaseFailure(Function<OriginAccounting.Visit, ResponseEntity<?>> answer,
            OriginAccounting.Visit visit) {
        try {
            return answer.apply(visit);
        } catch (RuntimeException e) {
            if (DatabaseFailures.isDatabase(e)) {
                return failures.answer(e);
            }
            throw e;
        }
    }

    // Anything but a positive whole number names no item: 404, as for an id that was never created.
    private static OptionalLong idOf(String id) {
        if (id.isEmpty() || id.length() > 18 || !id.chars().allMatch(c -> c >= '0' && c <= '9')) {
            return OptionalLong.empty();
        }
        long value = Long.parseLong(id);
        return (value > 0) ? OptionalLong.of(value) : OptionalLong.empty();
    }

    // Read as text whatever the Content-Type, so that a client that forgets it is told what is
    // wrong with the body rather than given a 415.
    private Named nameIn(String body) {
        if (body == null || body.isBlank()) {
            return Named.problem("send a JSON body (Content-Type: application/json) such as {\"name\":\"new name\"}");
        }
        JsonNode node;
        try {
            node = json.readTree(body);
        }
        catch (JsonProcessingException ex) {
            return Named.problem("the body is not JSON; send one such as {\"name\":\"new name\"}");
        }
        JsonNode name = node.path("name");
        if (!name.isTextual() || name.asText().isBlank()) {
            return Named.problem("name must be a non-blank string");
        }
        if (name.asText().length() > MAX_NAME_LENGTH) {
            return Named.problem("name must be at most " + MAX_NAME_LENGTH + " characters");
        }
        return new Named(name.asText(), null);
    }

    private static ResponseEntity<?> notFound() {
        return ResponseEntity.notFound().build();
    }

    private static ResponseEntity<?> badRequest(String problem) {
        return ResponseEntity.badRequest().contentType(MediaType.APPLICATION_JSON).body(Map.of("error", problem));
    }

    private record Named(String name, String problem) {
        static Named problem(String problem) {
            return new Named(null, problem);
        }
    }
}
