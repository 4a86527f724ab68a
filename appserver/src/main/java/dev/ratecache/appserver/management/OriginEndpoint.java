package dev.ratecache.appserver.management;

import dev.ratecache.appserver.accounting.OriginAccounting;
import dev.ratecache.appserver.accounting.OriginSnapshot;
import dev.ratecache.appserver.faults.Fault;
import dev.ratecache.appserver.faults.RuntimeFaults;
import dev.ratecache.appserver.items.ItemSeed;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.boot.actuate.endpoint.annotation.DeleteOperation;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import org.springframework.boot.actuate.endpoint.web.annotation.WebEndpoint;
import org.springframework.boot.convert.DurationStyle;
import org.springframework.lang.Nullable;
import org.springframework.stereotype.Component;

/**
 * {@code /actuator/origin}: read the accounting, reset it, or inject a fault into an endpoint.
 *
 * <p>It lives on the management port, which the Nginx tiers never proxy, so the suite can watch
 * and steer the origin without its own requests being counted or rate limited.
 */
@Component
@WebEndpoint(id = "origin")
class OriginEndpoint {

    private final OriginAccounting accounting;
    private final RuntimeFaults faults;
    private final ItemSeed items;

    OriginEndpoint(OriginAccounting accounting, RuntimeFaults faults, ItemSeed items) {
        this.accounting = accounting;
        this.faults = faults;
        this.items = items;
    }

    @ReadOperation
    OriginSnapshot counters() {
        return accounting.snapshot();
    }

    /**
     * Starts a new measurement: removes injected faults, puts the items back at version 1 and
     * zeroes the counters, so nothing an earlier measurement did shows in the next.
     */
    @DeleteOperation
    void reset() {
        faults.clear();
        items.reseed();
        accounting.reset();
    }

    @WriteOperation
    WebEndpointResponse<Map<String, Object>> injectFault(String endpoint, @Nullable Integer status,
            @Nullable String delay) {
        if (!accounting.endpoints().containsKey(endpoint)) {
            return badRequest("unknown endpoint '" + endpoint + "' (known: "
                    + String.join(", ", accounting.endpoints().keySet()) + ")");
        }
        if (status == null && delay == null) {
            return badRequest("give a status, a delay or both");
        }
        if (status != null && (status < 200 || status > 599)) {
            return badRequest("status must be between 200 and 599");
        }
        Duration parsedDelay = null;
        if (delay != null) {
            try {
                parsedDelay = DurationStyle.detectAndParse(delay);
            }
            catch (IllegalArgumentException ex) {
                return badRequest("delay must be a duration such as 100ms, 30s");
            }
            if (parsedDelay.isNegative()) {
                return badRequest("delay must not be negative");
            }
        }
        Fault active = faults.inject(endpoint, new Fault(status, parsedDelay));
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("endpoint", endpoint);
        body.put("status", active.status());
        body.put("delay", active.delay() != null ? active.delay().toMillis() + "ms" : null);
        return new WebEndpointResponse<>(body, WebEndpointResponse.STATUS_OK);
    }

    private static WebEndpointResponse<Map<String, Object>> badRequest(String error) {
        return new WebEndpointResponse<>(Map.of("error", error), WebEndpointResponse.STATUS_BAD_REQUEST);
    }
}
