package dev.ratecache.accesslog;

import java.util.Locale;

/**
 * Text from a user's file made fit to quote in a one-line message. A binary file given as a log,
 * or a stray byte in a line, would otherwise put control characters on the terminal: they can
 * break the line, hide what follows or move the cursor. What is not printable is written as an
 * escape instead: {@code \x00} for the first 256 code points, a backslash, u and four hex digits
 * beyond, as Java writes them; bytes that are not UTF-8, which the reader decodes to U+FFFD, show
 * as that escape too. A backslash stays as it is, so text escaped twice reads the same.
 */
public final class Printable {
    private Printable() {}

    public static String escape(String text) {
        StringBuilder out = new StringBuilder(text.length());
        text.codePoints().forEach(c -> out.append(piece(c)));
        return out.toString();
    }

    /** Whether {@link #escape(String)} leaves {@code text} as it is: every character of it printable. */
    public static boolean isPrintable(String text) {
        return text.codePoints().allMatch(Printable::printable);
    }

    /**
     * As {@link #escape(String)}, cut to at most {@code maxChars} characters with "..." when longer;
     * an escape is never cut in two.
     */
    public static String escape(String text, int maxChars) {
        String whole = escape(text);
        if (whole.length() <= maxChars) {
            return whole;
        }
        StringBuilder out = new StringBuilder(maxChars);
        for (int c : text.codePoints().toArray()) {
            String piece = piece(c);
            if (out.length() + piece.length() > maxChars - 3) {
                break;
            }
            out.append(piece);
        }
        return out.append("...").toString();
    }

    /** How long a value the user gave may be where a message quotes it: any path a user types, not a megabyte. */
    public static final int SHOWN_CHARS = 256;

    /**
     * A value the user gave (a flag's value, a path), as every message quotes it: escaped as
     * {@link #escape(String)} does, so that it stays one line and moves no cursor, and cut to
     * {@value #SHOWN_CHARS} characters with its whole length said, so that a value of a megabyte
     * is not a megabyte of message.
     */
    public static String shown(String value) {
        if (escape(value).length() <= SHOWN_CHARS) {
            return escape(value);
        }
        String cut = escape(value, SHOWN_CHARS + 3);
        return cut.substring(0, cut.length() - 3) + "\u2026(" + value.length() + " chars)";
    }

    private static String piece(int c) {
        if (printable(c)) {
            return new String(Character.toChars(c));
        }
        return c <= 0xFF ? String.format(Locale.ROOT, "\\x%02x", c) : String.format(Locale.ROOT, "\\u%04x", c);
    }

    private static boolean printable(int c) {
        if (c == 0xFFFD) {
            return false;
        }
        return switch (Character.getType(c)) {
            case Character.CONTROL, Character.FORMAT, Character.SURROGATE, Character.PRIVATE_USE,
                    Character.UNASSIGNED, Character.LINE_SEPARATOR, Character.PARAGRAPH_SEPARATOR -> false;
            default -> true;
        };
    }
}
