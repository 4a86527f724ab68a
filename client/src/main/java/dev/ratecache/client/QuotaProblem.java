package dev.ratecache.client;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Recognises the answer of an exhausted quota: a 429 whose body is an RFC 9457 problem
 * ({@code application/problem+json}) of the RateLimit draft's type
 * {@code https://iana.org/assignments/http-problem-types#quota-exceeded}, naming the policies it
 * broke in {@code violated-policies}.
 *
 * <p>The library has no JSON dependency of its own (Jackson is the load driver's, optional), and
 * only two top-level members matter, so this is a small reader of its own: bounded in size and
 * depth, it reads a well-formed body's top-level members and gives up (never throws) on anything else.
 */
final class QuotaProblem {
    static final String TYPE = "https://iana.org/assignments/http-problem-types#quota-exceeded";
    static final String MEDIA_TYPE = "application/problem+json";
    /** The largest body read; a problem document is a few hundred bytes. */
    static final int MAX_BODY = 64 * 1024;
    private static final int MAX_DEPTH = 32;

    private QuotaProblem() {}

    /** Whether a response of this status and Content-Type may be a quota problem, so its body is worth reading. */
    static boolean candidate(int status, String contentType) {
        if (status != 429 || contentType == null) {
            return false;
        }
        int semi = contentType.indexOf(';');
        String media = (semi < 0 ? contentType : contentType.substring(0, semi)).trim().toLowerCase(Locale.ROOT);
        return media.equals(MEDIA_TYPE);
    }

    /**
     * The policies a quota-exceeded problem names (empty when it names none), or null when the
     * response is not one.
     */
    static List<String> violatedPolicies(int status, String contentType, byte[] body) {
        if (!candidate(status, contentType) || body == null || body.length > MAX_BODY) {
            return null;
        }
        Json json = new Json(new String(body, StandardCharsets.UTF_8));
        try {
            return json.problem();
        } catch (Malformed e) {
            return null;
        }
    }

    private static final class Malformed extends Exception {
        Malformed() {
            super(null, null, false, false);
        }
    }

    /** Just enough of RFC 8259 to read an object's top-level strings and arrays of strings. */
    private static final class Json {
        private final String s;
        private int i;

        Json(String s) {
            this.s = s;
        }

        List<String> problem() throws Malformed {
            space();
            expect('{');
            String type = null;
            List<String> violated = null;
            space();
            if (peek() == '}') {
                i++;
            } else {
                while (true) {
                    space();
                    String key = string();
                    space();
                    expect(':');
                    space();
                    if (key.equals("type") && peek() == '"') {
                        type = string();
                    } else if (key.equals("violated-policies") && peek() == '[') {
                        violated = strings();
                    } else {
                        skip(1);
                    }
                    space();
                    char c = next();
                    if (c == '}') {
                        break;
                    }
                    if (c != ',') {
                        throw new Malformed();
                    }
                }
            }
            space();
            if (i != s.length() || !TYPE.equals(type)) {
                return null;
            }
            return violated == null ? List.of() : List.copyOf(violated);
        }

        /** An array; its string members, others skipped. */
        private List<String> strings() throws Malformed {
            List<String> out = new ArrayList<>();
            expect('[');
            space();
            if (peek() == ']') {
                i++;
                return out;
            }
            while (true) {
                space();
                if (peek() == '"') {
                    out.add(string());
                } else {
                    skip(2);
                }
                space();
                char c = next();
                if (c == ']') {
                    return out;
                }
                if (c != ',') {
                    throw new Malformed();
                }
            }
        }

        private void skip(int depth) throws Malformed {
            if (depth > MAX_DEPTH) {
                throw new Malformed();
            }
            char c = peek();
            if (c == '"') {
                string();
            } else if (c == '{' || c == '[') {
                char close = c == '{' ? '}' : ']';
                i++;
                space();
                if (peek() == close) {
                    i++;
                    return;
                }
                while (true) {
                    space();
                    if (close == '}') {
                        string();
                        space();
                        expect(':');
                        space();
                    }
                    skip(depth + 1);
                    space();
                    char n = next();
                    if (n == close) {
                        return;
                    }
                    if (n != ',') {
                        throw new Malformed();
                    }
                }
            } else {
                // A number, true, false or null: only its characters are checked, which is all a skip needs.
                int start = i;
                while (i < s.length() && "+-.0123456789eEtruefalsn".indexOf(s.charAt(i)) >= 0) {
                    i++;
                }
                if (i == start) {
                    throw new Malformed();
                }
            }
        }

        private String string() throws Malformed {
            expect('"');
            StringBuilder b = new StringBuilder();
            while (true) {
                char c = next();
                if (c == '"') {
                    return b.toString();
                }
                if (c < 0x20) {
                    throw new Malformed();
                }
                if (c != '\\') {
                    b.append(c);
                    continue;
                }
                char e = next();
                switch (e) {
                    case '"', '\\', '/' -> b.append(e);
                    case 'b' -> b.append('\b');
                    case 'f' -> b.append('\f');
                    case 'n' -> b.append('\n');
                    case 'r' -> b.append('\r');
                    case 't' -> b.append('\t');
                    case 'u' -> {
                        if (i + 4 > s.length()) {
                            throw new Malformed();
                        }
                        int cp = 0;
                        for (int k = 0; k < 4; k++) {
                            int d = Character.digit(s.charAt(i++), 16);
                            if (d < 0) {
                                throw new Malformed();
                            }
                            cp = cp * 16 + d;
                        }
                        b.append((char) cp);
                    }
                    default -> throw new Malformed();
                }
            }
        }

        private void space() {
            while (i < s.length() && " \t\r\n".indexOf(s.charAt(i)) >= 0) {
                i++;
            }
        }

        private char peek() throws Malformed {
            if (i >= s.length()) {
                throw new Malformed();
            }
            return s.charAt(i);
        }

        private char next() throws Malformed {
            char c = peek();
            i++;
            return c;
        }

        private void expect(char c) throws Malformed {
            if (next() != c) {
                throw new Malformed();
            }
        }
    }
}
