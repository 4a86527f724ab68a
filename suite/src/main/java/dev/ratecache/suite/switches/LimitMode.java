package dev.ratecache.suite.switches;

import dev.ratecache.accesslog.Printable;
import dev.ratecache.model.LimitReqSpec;
import dev.ratecache.model.Rate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What limit_req does with requests inside the burst: queue them at the rate (nginx's default),
 * pass them at once ({@code nodelay}), or pass the first N at once and queue the rest
 * ({@code delay=N}, two-stage limiting, nginx 1.15.7+).
 */
public record LimitMode(Kind kind, int delay) {
    public enum Kind { QUEUE, NODELAY, DELAY }

    public static final String ACCEPTED = "queue, nodelay or delay=N (N a whole number >= 1)";
    private static final Pattern DELAY = Pattern.compile("delay=(\\d{1,6})");

    public static final LimitMode QUEUE = new LimitMode(Kind.QUEUE, 0);
    public static final LimitMode NODELAY = new LimitMode(Kind.NODELAY, 0);

    public static LimitMode parse(String text) {
        String t = text.trim().toLowerCase();
        if (t.equals("queue")) {
            return QUEUE;
        }
        if (t.equals("nodelay")) {
            return NODELAY;
        }
        Matcher m = DELAY.matcher(t);
        if (m.matches() && Integer.parseInt(m.group(1)) >= 1) {
            return new LimitMode(Kind.DELAY, Integer.parseInt(m.group(1)));
        }
        throw new IllegalArgumentException("'" + Printable.escape(text) + "' is not a limit mode: use " + ACCEPTED);
    }

    /** limit_req's model of this mode at {@code rate} and {@code burst}, rejecting with {@code status}. */
    public LimitReqSpec limitReq(Rate rate, int burst, int status) {
        LimitReqSpec spec = switch (kind) {
            case QUEUE -> LimitReqSpec.queue(rate, burst);
            case NODELAY -> LimitReqSpec.nodelay(rate, burst);
            case DELAY -> LimitReqSpec.delay(rate, burst, delay);
        };
        return spec.withRejectStatus(status);
    }

    @Override
    public String toString() {
        return switch (kind) {
            case QUEUE -> "queue";
            case NODELAY -> "nodelay";
            case DELAY -> "delay=" + delay;
        };
    }
}
