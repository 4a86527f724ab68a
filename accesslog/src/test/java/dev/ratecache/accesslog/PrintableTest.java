package dev.ratecache.accesslog;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** What a one-line message may quote from a file: printable text as it is, the rest escaped. */
class PrintableTest {

    @Test
    void printableTextStaysAsItIsAccentsAndBackslashesIncluded() {
        assertThat(Printable.escape("GET /caf\u00e9?q=a\\b \"x\"")).isEqualTo("GET /caf\u00e9?q=a\\b \"x\"");
    }

    @Test
    void controlBytesAreEscapedAsHex() {
        assertThat(Printable.escape("\u007fELF\u0002\u0001\u0000\t\r\n\u001b[2J")).isEqualTo("\\x7fELF\\x02\\x01\\x00\\x09\\x0d\\x0a\\x1b[2J");
    }

    @Test
    void bytesThatWereNotUtf8AndInvisibleCharactersAreEscaped() {
        assertThat(Printable.escape("a\ufffdb\u200bc\u2028d\u0085")).isEqualTo("a\\ufffdb\\u200bc\\u2028d\\x85");
    }

    @Test
    void escapingTwiceChangesNothing() {
        String once = Printable.escape("\u0000\u00ff\ufffd");
        assertThat(Printable.escape(once)).isEqualTo(once);
    }

    @Test
    void aLongLineIsCutWithoutSplittingAnEscape() {
        String cut = Printable.escape("abcdef\u0000\u0000\u0000", 12);

        assertThat(cut).isEqualTo("abcdef...").hasSizeLessThanOrEqualTo(12);
        assertThat(Printable.escape("abcdef\u0000", 10)).isEqualTo("abcdef\\x00");
    }

    /** A value as every message quotes it: one line, no cursor moved, and no megabyte of message for a megabyte of value. */
    @Test
    void aValueIsShownEscapedAndCutWithItsLength() {
        assertThat(Printable.shown("/tmp/x\u001b[31my\nz")).isEqualTo("/tmp/x\\x1b[31my\\x0az");
        String huge = "a".repeat(100_000);
        assertThat(Printable.shown(huge)).isEqualTo("a".repeat(Printable.SHOWN_CHARS) + "\u2026(100000 chars)");
        assertThat(Printable.shown("a".repeat(Printable.SHOWN_CHARS))).isEqualTo("a".repeat(Printable.SHOWN_CHARS));
    }
}
