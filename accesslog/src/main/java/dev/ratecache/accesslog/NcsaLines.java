package dev.ratecache.accesslog;

import java.time.OffsetDateTime;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The NCSA family: Apache's and nginx's {@code combined} and the older {@code common}. Quoted fields
 * may hold escaped quotes ({@code \"}, as Apache writes them); nginx writes {@code \x22} instead,
 * which needs no special care.
 */
final class NcsaLines {
    private static final String QUOTED = "\"((?:[^\"\\\\]|\\\\.)*)\"";
    private static final String HEAD = "^(\\S+) \\S+ \\S+ \\[([^\\]]+)\\] " + QUOTED + " (\\d{3}) (\\d+|-)";
    private static final Pattern COMMON = Pattern.compile(HEAD + "\\s*$");
    private static final Pattern COMBINED = Pattern.compile(HEAD + " " + QUOTED + " " + QUOTED + "(.*)$");

    /**
     * One field after the user agent: {@code key=value} or a bare value, either possibly quoted. A
     * bare value may be a list ({@code 0.010, 0.020}, or {@code 0.010 : 0.020} after an internal
     * redirect), which is why commas and colons with spaces around them continue a value.
     */
    private static final Pattern EXTRA = Pattern.compile(
            "\\s*(?:([A-Za-z_][\\w.-]*)=)?(?:\"([^\"]*)\"|([^\\s\",:]+(?:\\s*[,:]\\s*[^\\s\",:]+)*))");

    /** The request line: method, target and (unless HTTP/0.9) the protocol. */
    private static final Pattern REQUEST = Pattern.compile("^([A-Za-z][A-Za-z0-9!#$%&'*+.^_`|~-]*) (\\S+)(?: \\S+)?$");

    /** Plain decimals only: Java would also take "NaN", "1e3" or "0x1p3", which no log writes. */
    private static final Pattern DURATION = Pattern.compile("\\d+(?:\\.\\d+)?");

    private NcsaLines() {}

    static Optional<LoggedRequest> combined(long line, String text) {
        Matcher m = COMBINED.matcher(text);
        if (!m.matches()) {
            return Optional.empty();
        }
        return request(line, m).map(r -> withTimings(r, m.group(8)));
    }

    static Optional<LoggedRequest> common(long line, String text) {
        Matcher m = COMMON.matcher(text);
        return m.matches() ? request(line, m) : Optional.empty();
    }

    private static Optional<LoggedRequest> request(long line, Matcher m) {
        Optional<OffsetDateTime> time = LogTimes.local(m.group(2));
        if (time.isEmpty()) {
            return Optional.empty();
        }
        String method = LoggedRequest.NO_REQUEST;
        String uri = "";
        Matcher r = REQUEST.matcher(m.group(3));
        if (r.matches()) {
            method = r.group(1).toUpperCase(java.util.Locale.ROOT);
            uri = r.group(2);
        }
        // Apache logs "-" for a body of no bytes; nginx logs 0.
        OptionalLong bytes = m.group(5).equals("-") ? OptionalLong.of(0) : OptionalLong.of(Long.parseLong(m.group(5)));
        return Optional.of(new LoggedRequest(line, time.get(), m.group(1), method, uri, Integer.parseInt(m.group(4)),
                bytes, OptionalDouble.empty(), OptionalDouble.empty()));
    }

    /**
     * Reads {@code $request_time} and {@code $upstream_response_time} from what follows the user
     * agent, as {@code rt=}/{@code urt=} (or their long names) or as the first two unquoted bare
     * values. Quoted bare values are skipped because that is how other appended fields (such as
     * {@code "$http_x_forwarded_for"}) are written; anything unrecognised is ignored, not an error,
     * since people append all sorts of fields.
     */
    private static LoggedRequest withTimings(LoggedRequest r, String rest) {
        OptionalDouble requestTime = OptionalDouble.empty();
        OptionalDouble upstreamTime = OptionalDouble.empty();
        int bare = 0;
        boolean positional = true;
        Matcher m = EXTRA.matcher(rest);
        int at = 0;
        while (at < rest.length() && m.find(at) && m.start() == at) {
            at = m.end();
            String key = m.group(1);
            String value = m.group(2) != null ? m.group(2) : m.group(3);
            if (key != null) {
                switch (key) {
                    case "rt", "request_time" -> requestTime = seconds(value).orElse(requestTime);
                    case "urt", "upstream_response_time", "upstream_time" -> upstreamTime = seconds(value).orElse(upstreamTime);
                    default -> { }
                }
            } else if (m.group(3) != null && positional) {
                Optional<OptionalDouble> v = seconds(value);
                if (v.isEmpty()) {
                    positional = false;
                } else if (bare++ == 0) {
                    requestTime = v.get();
                } else if (bare == 2) {
                    upstreamTime = v.get();
                }
            }
        }
        return new LoggedRequest(r.line(), r.time(), r.client(), r.method(), r.uri(), r.status(), r.bytes(),
                requestTime, upstreamTime);
    }

    /**
     * A logged duration in seconds: a number, {@code -} for none, or a list of them (one per upstream
     * tried), summed because the client waited for all of them. Empty when the text is not a duration
     * at all; an empty OptionalDouble inside when it says "none".
     */
    static Optional<OptionalDouble> seconds(String text) {
        String t = text.strip();
        if (t.isEmpty() || t.equals("-")) {
            return Optional.of(OptionalDouble.empty());
        }
        double sum = 0;
        boolean any = false;
        for (String part : t.split("\\s*[,:]\\s*")) {
            if (part.equals("-") || part.isEmpty()) {
                continue;
            }
            if (!DURATION.matcher(part).matches()) {
                return Optional.empty();
            }
            sum += Double.parseDouble(part);
            any = true;
        }
        return Optional.of(any ? OptionalDouble.of(sum) : OptionalDouble.empty());
    }
}
