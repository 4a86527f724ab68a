package dev.ratecache.accesslog;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * How the lines of a log are written. The user names one with {@code --log-format}, or leaves it
 * to {@link Auto}; a closed set, so that every format the replay takes is one its tests read.
 */
public sealed interface LogFormat
        permits LogFormat.Auto, LogFormat.Combined, LogFormat.Common, LogFormat.Named {
    Auto AUTO = new Auto();
    Combined COMBINED = new Combined();
    Common COMMON = new Common();
    SuiteJson SUITE_JSON = new SuiteJson();

    /** The forms {@link #parse} takes, for messages and help. */
    String ACCEPTED = "auto, combined, common, suite-json, json:time=FIELD,client=FIELD,method=FIELD,uri=FIELD"
            + "[,status=FIELD][,bytes=FIELD][,request_time=FIELD][,upstream_time=FIELD][,limit_status=FIELD]";

    /** The formats {@link Auto} tries, in the order that breaks a tie. */
    List<LogFormat> RECOGNISED = List.of(SUITE_JSON, COMBINED, COMMON);

    /** The spelling {@link #parse} takes back: what a summary says was used. */
    String spelling();

    /** What the lines were expected to be, for messages ("are not nginx combined"). */
    String description();

    /** The request a line records, or empty when the line is not in this format. */
    Optional<LoggedRequest> parseLine(long line, String text);

    /**
     * As {@link #parseLine(long, String)}, with the request's key read from field {@code keyField}
     * (null: none). Only a format with named fields ({@link #hasFields()}) can read one.
     */
    default Optional<LoggedRequest> parseLine(long line, String text, String keyField) {
        if (keyField != null) {
            throw new UnsupportedOperationException(spelling() + " has no fields to read a key from");
        }
        return parseLine(line, text);
    }

    /** Whether its lines can carry nginx's {@code $limit_req_status} (a field named for it). */
    default boolean hasLimitStatus() {
        return false;
    }

    /** Whether a line's values are named, so that a key can be read from any field the user names. */
    default boolean hasFields() {
        return false;
    }

    /**
     * How finely the times of {@code requests}, read in this format, tell when each came. The NCSA
     * formats know it from their spelling ({@code [10/Oct/2000:13:55:36 -0700]} has no fraction); a
     * JSON log's time field may be either, so the values say.
     */
    TimeResolution resolution(List<LoggedRequest> requests);

    /**
     * The format {@code --log-format} names.
     *
     * @throws IllegalArgumentException with one line that lists the accepted forms
     */
    static LogFormat parse(String text) {
        String t = text == null ? "" : text.strip();
        String lower = t.toLowerCase(Locale.ROOT);
        switch (lower) {
            case "auto":
                return AUTO;
            case "combined":
                return COMBINED;
            case "common":
                return COMMON;
            case "suite-json":
                return SUITE_JSON;
            default:
                if (lower.startsWith("json:")) {
                    return Json.parseMapping(t.substring("json:".length()));
                }
                throw new IllegalArgumentException("unknown log format \"" + Printable.escape(t) + "\"; use one of: " + ACCEPTED);
        }
    }

    /**
     * Whichever of {@link #RECOGNISED} fits the first lines best; see {@code AccessLog} for the rule.
     * It parses no line itself: one format is chosen for the whole log, so a log cannot silently mix.
     */
    record Auto() implements LogFormat {
        @Override
        public String spelling() {
            return "auto";
        }

        @Override
        public String description() {
            return "any of " + String.join(", ", RECOGNISED.stream().map(LogFormat::spelling).toList());
        }

        @Override
        public Optional<LoggedRequest> parseLine(long line, String text) {
            throw new UnsupportedOperationException("auto picks a format from the first lines; AccessLog.read does that");
        }

        @Override
        public TimeResolution resolution(List<LoggedRequest> requests) {
            throw new UnsupportedOperationException("auto picks a format from the first lines; AccessLog.read does that");
        }
    }

    /** nginx's and Apache's {@code combined}, with or without request and upstream times appended. */
    record Combined() implements LogFormat {
        @Override
        public String spelling() {
            return "combined";
        }

        @Override
        public String description() {
            return "nginx combined";
        }

        @Override
        public Optional<LoggedRequest> parseLine(long line, String text) {
            return NcsaLines.combined(line, text);
        }

        @Override
        public TimeResolution resolution(List<LoggedRequest> requests) {
            return TimeResolution.WHOLE_SECONDS;
        }
    }

    /** Apache's and NCSA's {@code common}: combined without referer and user agent. */
    record Common() implements LogFormat {
        @Override
        public String spelling() {
            return "common";
        }

        @Override
        public String description() {
            return "common log format";
        }

        @Override
        public Optional<LoggedRequest> parseLine(long line, String text) {
            return NcsaLines.common(line, text);
        }

        @Override
        public TimeResolution resolution(List<LoggedRequest> requests) {
            return TimeResolution.WHOLE_SECONDS;
        }
    }

    /**
     * The suite's own {@code log_format suite} (nginx/snippets/shared/logging.conf), so a run's log can be
     * replayed as it is.
     */
    /** A log whose lines name their values (JSON lines): read by field, a key from any field the user names. */
    sealed interface Named extends LogFormat permits SuiteJson, Json {
        /** Which field holds the time, the client, the method and so on (the keys of {@link Json}). */
        Map<String, String> fields();

        @Override
        default Optional<LoggedRequest> parseLine(long line, String text) {
            return JsonLines.parse(fields(), line, text, null);
        }

        @Override
        default Optional<LoggedRequest> parseLine(long line, String text, String keyField) {
            return JsonLines.parse(fields(), line, text, keyField);
        }

        @Override
        default boolean hasFields() {
            return true;
        }

        @Override
        default boolean hasLimitStatus() {
            return fields().containsKey(Json.LIMIT_STATUS);
        }

        /**
         * From the values, for the field may hold either: {@code $msec} has fractions, {@code $time_iso8601}
         * (the suite's own log) whole seconds.
         */
        @Override
        default TimeResolution resolution(List<LoggedRequest> requests) {
            return TimeResolution.of(requests);
        }
    }

    record SuiteJson() implements Named {
        static final Map<String, String> FIELDS = Map.of(Json.TIME, "time", Json.CLIENT, "client",
                Json.METHOD, "method", Json.URI, "uri", Json.STATUS, "status", Json.BYTES, "bytes",
                Json.REQUEST_TIME, "request_time", Json.UPSTREAM_TIME, "upstream_time",
                Json.LIMIT_STATUS, "limit_req");

        @Override
        public Map<String, String> fields() {
            return FIELDS;
        }

        @Override
        public String spelling() {
            return "suite-json";
        }

        @Override
        public String description() {
            return "the suite's JSON log";
        }


    }

    /**
     * Any JSON-lines log, by naming which of its fields holds what the replay needs. The time field
     * may be ISO-8601 with an offset, the {@code combined} spelling, or an epoch number (seconds,
     * or milliseconds when above 1e11).
     *
     * @param fields what the replay needs ({@link #TIME}, ...) to the log's field name; ordered as given
     */
    record Json(Map<String, String> fields) implements Named {
        public static final String TIME = "time";
        public static final String CLIENT = "client";
        public static final String METHOD = "method";
        public static final String URI = "uri";
        public static final String STATUS = "status";
        public static final String BYTES = "bytes";
        public static final String REQUEST_TIME = "request_time";
        public static final String UPSTREAM_TIME = "upstream_time";
        /** nginx's {@code $limit_req_status}: what limit_req decided, read back by advise's shadow mode. */
        public static final String LIMIT_STATUS = "limit_status";
        public static final Set<String> REQUIRED = Set.of(TIME, CLIENT, METHOD, URI);
        public static final List<String> KEYS = List.of(TIME, CLIENT, METHOD, URI, STATUS, BYTES, REQUEST_TIME,
                UPSTREAM_TIME, LIMIT_STATUS);

        public Json {
            Map<String, String> named = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(fields));
            fields = named;
            for (String key : named.keySet()) {
                if (!KEYS.contains(key)) {
                    throw new IllegalArgumentException("unknown key \"" + Printable.escape(key) + "\" in json log format; keys are "
                            + String.join(", ", KEYS));
                }
            }
            List<String> missing = KEYS.stream().filter(REQUIRED::contains).filter(k -> !named.containsKey(k)).toList();
            if (!missing.isEmpty()) {
                throw new IllegalArgumentException("json log format lacks " + String.join(", ", missing)
                        + "=FIELD; write it like json:time=ts,client=ip,method=verb,uri=path");
            }
        }

        static Json parseMapping(String mapping) {
            Map<String, String> fields = new LinkedHashMap<>();
            for (String pair : mapping.split(",")) {
                int eq = pair.indexOf('=');
                String key = eq < 0 ? pair.strip() : pair.substring(0, eq).strip().toLowerCase(Locale.ROOT);
                String name = eq < 0 ? "" : pair.substring(eq + 1).strip();
                if (key.isEmpty() || name.isEmpty()) {
                    throw new IllegalArgumentException("\"" + Printable.escape(pair.strip()) + "\" in json log format is not KEY=FIELD; "
                            + "write it like json:time=ts,client=ip,method=verb,uri=path");
                }
                if (fields.put(key, name) != null) {
                    throw new IllegalArgumentException("json log format names " + Printable.escape(key) + " twice");
                }
            }
            return new Json(fields);
        }

        @Override
        public String spelling() {
            StringBuilder s = new StringBuilder("json:");
            fields.forEach((k, v) -> s.append(s.length() > 5 ? "," : "").append(k).append('=').append(v));
            return s.toString();
        }

        @Override
        public String description() {
            return "JSON with " + spelling().substring("json:".length());
        }

    }
}
