package dev.ratecache.accesslog;

import java.time.OffsetDateTime;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.function.IntPredicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The NCSA family: Apache's and nginx's {@code combined} and the older {@code common}. Quoted fields
 * may hold escaped quotes ({@code \"}, as Apache writes them); nginx writes {@code \x22} instead,
 * which needs no special care.
 *
 * <p>Read by hand, with an index into the line, rather than by a regex: Java's regex engine recurses
 * once per repetition of a group, so a quoted field of a couple of thousand characters (a long query
 * or user agent, which real logs have) overflowed the stack. A scan costs no stack whatever a
 * field's length.
 */
final class NcsaLines {
    /** The request line: method, target and (unless HTTP/0.9) the protocol. */
    private static final Pattern REQUEST = Pattern.compile("^([A-Za-z][A-Za-z0-9!#$%&'*+.^_`|~-]*) (\\S+)(?: \\S+)?$");

    /** Plain decimals only: Java would also take "NaN", "1e3" or "0x1p3", which no log writes. */
    private static final Pattern DURATION = Pattern.compile("\\d+(?:\\.\\d+)?");

    private NcsaLines() {}

    /** What both formats start with: {@code client ident user [time] "request" status bytes}. */
    private record Head(String client, String time, String request, String status, String bytes) {}

    static Optional<LoggedRequest> combined(long line, String text) {
        Scan s = new Scan(text);
        Head head = head(s);
        if (head == null || !s.next(' ')) {
            return Optional.empty();
        }
        // The referer and the user agent: read past, whatever they hold.
        if (s.quoted() == null || !s.next(' ') || s.quoted() == null) {
            return Optional.empty();
        }
        String rest = s.rest();
        return request(line, head).map(r -> withTimings(r, rest));
    }

    static Optional<LoggedRequest> common(long line, String text) {
        Scan s = new Scan(text);
        Head head = head(s);
        s.run(Scan::space);
        return head != null && s.end() ? request(line, head) : Optional.empty();
    }

    private static Head head(Scan s) {
        String client = s.run(Scan::word);
        boolean ok = client != null && s.next(' ') && s.run(Scan::word) != null && s.next(' ')
                && s.run(Scan::word) != null && s.next(' ') && s.next('[');
        String time = ok ? s.run(c -> c != ']') : null;
        if (time == null || !s.next(']') || !s.next(' ')) {
            return null;
        }
        String request = s.quoted();
        if (request == null || !s.next(' ')) {
            return null;
        }
        String status = s.run(Scan::digit);
        if (status == null || status.length() != 3 || !s.next(' ')) {
            return null;
        }
        String bytes = s.next('-') ? "-" : s.run(Scan::digit);
        return bytes == null ? null : new Head(client, time, request, status, bytes);
    }

    private static Optional<LoggedRequest> request(long line, Head h) {
        Optional<OffsetDateTime> time = LogTimes.local(h.time());
        if (time.isEmpty()) {
            return Optional.empty();
        }
        String method = LoggedRequest.NO_REQUEST;
        String uri = "";
        Matcher r = REQUEST.matcher(h.request());
        if (r.matches()) {
            method = r.group(1).toUpperCase(java.util.Locale.ROOT);
            uri = r.group(2);
        }
        OptionalLong bytes;
        try {
            // Apache logs "-" for a body of no bytes; nginx logs 0.
            bytes = OptionalLong.of(h.bytes().equals("-") ? 0 : Long.parseLong(h.bytes()));
        } catch (NumberFormatException e) {
            // More digits than a long holds: no size any server sent.
            return Optional.empty();
        }
        return Optional.of(new LoggedRequest(line, time.get(), h.client(), method, uri, Integer.parseInt(h.status()),
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
        Scan s = new Scan(rest);
        Extra e;
        while (!s.end() && (e = extra(s)) != null) {
            if (e.key() != null) {
                switch (e.key()) {
                    case "rt", "request_time" -> requestTime = seconds(e.value()).orElse(requestTime);
                    case "urt", "upstream_response_time", "upstream_time" -> upstreamTime = seconds(e.value()).orElse(upstreamTime);
                    default -> { }
                }
            } else if (!e.quoted() && positional) {
                Optional<OptionalDouble> v = seconds(e.value());
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

    /** One field after the user agent: {@code key=value} or a bare value, either possibly quoted. */
    private record Extra(String key, String value, boolean quoted) {}

    /**
     * The field at the scan's place, after any blanks; null (the rest ignored) when none starts there.
     * A name followed by {@code =} is a key unless no value follows, when the whole is a bare value.
     */
    private static Extra extra(Scan s) {
        s.run(Scan::space);
        int start = s.at;
        String key = s.run(c -> c < 128 && (Character.isLetterOrDigit(c) || c == '_' || c == '.' || c == '-'));
        if (key == null || !Character.isLetter(key.charAt(0)) && key.charAt(0) != '_' || !s.next('=')) {
            key = null;
            s.at = start;
        }
        Extra e = value(s, key);
        if (e == null && key != null) {
            s.at = start;
            e = value(s, null);
        }
        return e;
    }

    /**
     * A quoted value, or a bare one. A bare value may be a list ({@code 0.010, 0.020}, or
     * {@code 0.010 : 0.020} after an internal redirect), which is why commas and colons with blanks
     * around them continue it.
     */
    private static Extra value(Scan s, String key) {
        if (s.next('"')) {
            int from = s.at;
            while (!s.end() && s.peek() != '"') {
                s.at++;
            }
            return s.end() ? null : new Extra(key, s.text.substring(from, s.at++), true);
        }
        int from = s.at;
        if (s.run(NcsaLines::bare) == null) {
            return null;
        }
        int end = s.at;
        while (true) {
            s.run(Scan::space);
            if (!s.next(',') && !s.next(':')) {
                break;
            }
            s.run(Scan::space);
            if (s.run(NcsaLines::bare) == null) {
                break;
            }
            end = s.at;
        }
        s.at = end;
        return new Extra(key, s.text.substring(from, end), false);
    }

    private static boolean bare(int c) {
        return !Scan.space(c) && c != '"' && c != ',' && c != ':';
    }

    /** A place in one line, moved forward by hand. */
    private static final class Scan {
        final String text;
        int at;

        Scan(String text) {
            this.text = text;
        }

        /** Regex's {@code \s}: what separates a log's fields. */
        static boolean space(int c) {
            return c == ' ' || c == '\t' || c == '\n' || c == 0x0B || c == '\f' || c == '\r';
        }

        static boolean word(int c) {
            return !space(c);
        }

        static boolean digit(int c) {
            return c >= '0' && c <= '9';
        }

        boolean end() {
            return at >= text.length();
        }

        char peek() {
            return text.charAt(at);
        }

        boolean next(char c) {
            if (!end() && peek() == c) {
                at++;
                return true;
            }
            return false;
        }

        /** The longest run of characters that {@code in} takes; null when there is none. */
        String run(IntPredicate in) {
            int from = at;
            while (!end() && in.test(peek())) {
                at++;
            }
            return at > from ? text.substring(from, at) : null;
        }

        /** A quoted field, as written between its quotes: a backslash takes the next character in. */
        String quoted() {
            if (!next('"')) {
                return null;
            }
            int from = at;
            while (!end() && peek() != '"') {
                at += peek() == '\\' ? 2 : 1;
            }
            return end() ? null : text.substring(from, at++);
        }

        String rest() {
            return text.substring(Math.min(at, text.length()));
        }
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
