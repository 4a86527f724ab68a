package dev.ratecache.client;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A lenient reader of the structured-field lists (RFC 9651) that RateLimit-Policy and RateLimit
 * are: {@code "name";key=1;other=2, "name2";key=3}. A header comes from a server the client does
 * not control, so the reader never throws: a member it cannot read is dropped with everything up
 * to the next top-level comma, and a parameter whose value is not an integer is kept out of
 * {@link Member#ints()} (the only values these fields carry). Quoted strings are read with their
 * escapes, so a comma or a semicolon inside a policy's name does not split it.
 */
final class StructuredList {
    /** The longest value read; a longer one is cut there (a server has no reason to send more). */
    static final int MAX_LENGTH = 16 * 1024;
    /** RFC 9651's limit on an integer's digits (so that every value fits a long). */
    private static final int MAX_DIGITS = 15;

    private StructuredList() {}

    /** One member: its name (a string's or a token's text) and its integer parameters, keys in lower case. */
    record Member(String name, Map<String, Long> ints) {}

    /** The members of {@code value} that read as an item with a string or token name; never null. */
    static List<Member> parse(String value) {
        if (value == null) {
            return List.of();
        }
        String v = value.length() > MAX_LENGTH ? value.substring(0, MAX_LENGTH) : value;
        List<Member> members = new ArrayList<>();
        Reader r = new Reader(v);
        while (true) {
            r.skipSpace();
            if (r.atEnd()) {
                break;
            }
            Member m = r.member();
            if (m != null) {
                members.add(m);
            }
            // Whatever is left of the member (all of it when it could not be read) goes.
            r.skipToNextMember();
        }
        return members;
    }

    private static final class Reader {
        private final String s;
        private int i;

        Reader(String s) {
            this.s = s;
        }

        boolean atEnd() {
            return i >= s.length();
        }

        void skipSpace() {
            while (i < s.length() && (s.charAt(i) == ' ' || s.charAt(i) == '\t')) {
                i++;
            }
        }

        /** Past the next comma outside a quoted string, or to the end. */
        void skipToNextMember() {
            boolean quoted = false;
            while (i < s.length()) {
                char c = s.charAt(i++);
                if (quoted) {
                    if (c == '\\') {
                        i++;
                    } else if (c == '"') {
                        quoted = false;
                    }
                } else if (c == '"') {
                    quoted = true;
                } else if (c == ',') {
                    return;
                }
            }
        }

        /** A member at the current position, or null when it is not an item named by a string or token. */
        Member member() {
            String name;
            if (s.charAt(i) == '"') {
                name = string();
            } else if (tokenStart(s.charAt(i))) {
                name = token();
            } else {
                return null;
            }
            if (name == null) {
                return null;
            }
            Map<String, Long> ints = new LinkedHashMap<>();
            while (true) {
                skipSpace();
                if (atEnd() || s.charAt(i) != ';') {
                    break;
                }
                i++;
                skipSpace();
                String key = key();
                if (key == null) {
                    return null;
                }
                if (!atEnd() && s.charAt(i) == '=') {
                    i++;
                    Long n = integer();
                    if (n != null) {
                        ints.put(key, n);
                    } else {
                        // Not an integer (a decimal, string, token, boolean...): its key is
                        // dropped, and whatever the value was is skipped up to the next parameter.
                        ints.remove(key);
                        skipValue();
                    }
                } else {
                    ints.remove(key);
                }
            }
            skipSpace();
            if (!atEnd() && s.charAt(i) != ',') {
                return null;
            }
            return new Member(name, Collections.unmodifiableMap(ints));
        }

        private String string() {
            StringBuilder b = new StringBuilder();
            i++;
            while (i < s.length()) {
                char c = s.charAt(i++);
                if (c == '\\') {
                    if (i >= s.length()) {
                        return null;
                    }
                    char e = s.charAt(i++);
                    if (e != '"' && e != '\\') {
                        return null;
                    }
                    b.append(e);
                } else if (c == '"') {
                    return b.toString();
                } else if (c < 0x20 || c > 0x7e) {
                    return null;
                } else {
                    b.append(c);
                }
            }
            return null;
        }

        private static boolean tokenStart(char c) {
            return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '*';
        }

        private String token() {
            int start = i;
            while (i < s.length() && tokenChar(s.charAt(i))) {
                i++;
            }
            return s.substring(start, i);
        }

        private static boolean tokenChar(char c) {
            return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                    || "!#$%&'*+-.^_`|~:/".indexOf(c) >= 0;
        }

        /** A parameter's key; RFC 9651 wants lower case, servers that send upper case are read too. */
        private String key() {
            if (atEnd()) {
                return null;
            }
            char c = s.charAt(i);
            if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '*')) {
                return null;
            }
            int start = i;
            while (i < s.length()) {
                char k = s.charAt(i);
                if ((k >= 'a' && k <= 'z') || (k >= 'A' && k <= 'Z') || (k >= '0' && k <= '9') || "_-.*".indexOf(k) >= 0) {
                    i++;
                } else {
                    break;
                }
            }
            return s.substring(start, i).toLowerCase(Locale.ROOT);
        }

        /** An integer of at most 15 digits, optionally negative, not followed by a decimal point; else null (position unchanged). */
        private Long integer() {
            int start = i;
            int j = i;
            boolean negative = j < s.length() && s.charAt(j) == '-';
            if (negative) {
                j++;
            }
            int digits = j;
            while (j < s.length() && s.charAt(j) >= '0' && s.charAt(j) <= '9') {
                j++;
            }
            int n = j - digits;
            if (n == 0 || n > MAX_DIGITS || (j < s.length() && s.charAt(j) == '.')) {
                i = start;
                return null;
            }
            i = j;
            long value = Long.parseLong(s.substring(digits, j));
            return negative ? -value : value;
        }

        /** Past a bare item of any other kind, up to the next parameter or member. */
        private void skipValue() {
            if (!atEnd() && s.charAt(i) == '"') {
                if (string() == null) {
                    i = s.length();
                }
                return;
            }
            while (i < s.length() && s.charAt(i) != ';' && s.charAt(i) != ',' && s.charAt(i) != '"') {
                i++;
            }
        }
    }
}
