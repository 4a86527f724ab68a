package dev.ratecache.appserver.faults;

import java.time.Duration;

/**
 * A misbehaviour injected at run time into one endpoint; either part may be absent.
 *
 * @param status the status to answer instead of the content, or null
 * @param delay the delay to use instead of the configured one, or null
 */
public record Fault(Integer status, Duration delay) {

    static final Fault NONE = new Fault(null, null);

    /** This fault with the parts that {@code update} sets replaced. */
    Fault with(Fault update) {
        return new Fault(update.status != null ? update.status : status,
                update.delay != null ? update.delay : delay);
    }
}
