package dev.ratecache.accesslog;

import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * What the replay will be, told before it starts, so the user can see that the log was read as they
 * meant (format, how much was left out and why) before minutes of load are spent on it.
 *
 * @param source the log as the user named it
 * @param format the spelling of the format the log was read in
 * @param lines non-blank lines read
 * @param requestsInLog requests that parsed
 * @param requestsKept requests to replay
 * @param bad the lines that did not parse
 * @param skippedMethods requests inside the time window left out for their method, by method,
 *     most frequent first
 * @param outsideSelection requests left out by --from, --to or --first
 * @param clients distinct original clients replayed
 * @param first the first replayed request's time, in its logged offset
 * @param last the last replayed request's time, in its logged offset
 * @param speed how many times faster than logged the replay runs
 * @param resolution whether the log's times are whole seconds, which the replay sends as written
 * @param keys what the key field gave, or null when the log was read without one
 * @param longRequestLines requests left out because their request line is longer than the suite's
 *     front takes ({@link Replay#MAX_REQUEST_LINE_BYTES})
 */
public record ReplaySummary(String source, String format, long lines, long requestsInLog, long requestsKept,
        BadLines bad, Map<String, Long> skippedMethods, long outsideSelection, long clients, OffsetDateTime first,
        OffsetDateTime last, double speed, TimeResolution resolution, Keys keys, long longRequestLines) {
    public ReplaySummary {
        skippedMethods = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(skippedMethods));
    }

    /**
     * The replayed requests' keys.
     *
     * @param field the log's key field
     * @param keyed replayed requests with a key in it
     * @param distinct distinct keys sent
     * @param unsent keyed requests sent without their key, which nginx would count as missing
     *     ({@link Replay#sendable})
     */
    public record Keys(String field, long keyed, long distinct, long unsent) {}

    /**
     * Said wherever a replay's figures are shown: the replay, and so the model's prediction of it,
     * meets each second's requests at once, a burst the real traffic may never have had.
     */
    public static final String WHOLE_SECONDS_NOTE = "The log's times are whole seconds: each second's requests are"
            + " sent together at its start (the times as written), and the predictions assume the same; the real"
            + " traffic came spread over its seconds, so it may have met fewer rejections and delays than these.";

    /** The logged time from the first to the last replayed request. */
    public Duration span() {
        return Duration.between(first.toInstant(), last.toInstant());
    }

    /** One paragraph for the terminal and the run's report. */
    public String text() {
        StringBuilder s = new StringBuilder();
        s.append(String.format(Locale.ROOT, "%s read as %s: %d lines, %d requests", source, format, lines, requestsInLog));
        s.append(", ").append(bad.text());
        s.append(String.format(Locale.ROOT, ". Replaying %d requests from %d clients, logged from %s to %s (%s), at speed %s (%s).",
                requestsKept, clients, LogTimes.ISO.format(first), LogTimes.ISO.format(last), human(span()), AccessLog.plain(speed),
                human(Duration.ofNanos(Math.round(span().toNanos() / speed)))));
        if (!skippedMethods.isEmpty()) {
            s.append(" Skipped for their method: ").append(skippedMethods.entrySet().stream()
                    .map(e -> e.getValue() + " " + (e.getKey().equals(LoggedRequest.NO_REQUEST) ? "without a request line"
                            : Printable.escape(e.getKey())))
                    .collect(Collectors.joining(", "))).append('.');
        }
        if (longRequestLines > 0) {
            s.append(String.format(Locale.ROOT, " %s left out: %s over the %d KiB the suite's front takes"
                    + " (large_client_header_buffers 4 8k), which would answer %s 414 before any limit or cache saw %s.",
                    longRequestLines == 1 ? "1 request" : longRequestLines + " requests",
                    longRequestLines == 1 ? "its request line is" : "their request lines are",
                    Replay.MAX_REQUEST_LINE_BYTES / 1024, longRequestLines == 1 ? "it" : "them",
                    longRequestLines == 1 ? "it" : "them"));
        }
        if (outsideSelection > 0) {
            s.append(String.format(Locale.ROOT, " %d requests outside --from/--to/--first.", outsideSelection));
        }
        if (keys != null) {
            s.append(String.format(Locale.ROOT, " Keys from field %s: %d of %d requests carry one (%d distinct keys),"
                    + " sent in the limit key's header; the others are sent without it.", keys.field(), keys.keyed(),
                    requestsKept, keys.distinct()));
            if (keys.unsent() > 0) {
                s.append(String.format(Locale.ROOT, " %d keys over %d bytes or with characters other than visible ASCII"
                        + " are sent as no key, as nginx would count them.", keys.unsent(), Replay.MAX_KEY_BYTES));
            }
        }
        if (resolution == TimeResolution.WHOLE_SECONDS) {
            s.append(" ").append(WHOLE_SECONDS_NOTE);
        }
        return s.toString();
    }

    private static String human(Duration d) {
        long seconds = d.toSeconds();
        if (seconds < 60) {
            return String.format(Locale.ROOT, "%.1f s", d.toMillis() / 1000.0);
        }
        if (seconds < 3600) {
            return String.format(Locale.ROOT, "%d min %d s", seconds / 60, seconds % 60);
        }
        return String.format(Locale.ROOT, "%d h %d min", seconds / 3600, seconds % 3600 / 60);
    }
}
