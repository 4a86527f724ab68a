package dev.ratecache.suite.terminal;

import java.io.PrintWriter;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.Help.Ansi;
import picocli.CommandLine.Help.Ansi.IStyle;
import picocli.CommandLine.Help.Ansi.Style;

/**
 * Where a command writes, as its user sees it: colour where picocli's {@link Ansi#AUTO} allows it
 * (a terminal, and no NO_COLOR), a line that rewrites itself only on a terminal, so that a log or a
 * pipe gets neither escapes nor carriage returns; and whether the tools' own output is wanted too
 * (--verbose).
 */
public record Terminal(PrintWriter out, Ansi ansi, boolean live, boolean verbose) {
    /**
     * A verdict: an upper-case word that says how something ended (a check's PASS or FAIL, a failed
     * cell, a peak below its bar), or a warning at the start of a line (after its indent).
     */
    private static final Pattern VERDICT = Pattern.compile(
            "\\b(PASS|FAIL|FAILED|BELOW|INCOMPLETE|APP CACHE FAILED)\\b|(?m)(?<=^\\s{0,8})warning\\b");

    public static Terminal of(PrintWriter out, boolean verbose) {
        return new Terminal(out, Ansi.AUTO.enabled() ? Ansi.ON : Ansi.OFF, System.console() != null, verbose);
    }

    /** No colour, no live line, no tools' output: for a caller that reads what is written. */
    public static Terminal plain(PrintWriter out) {
        return new Terminal(out, Ansi.OFF, false, false);
    }

    /** {@code text} with each verdict coloured: PASS green, warning yellow, the others red. */
    public String highlight(String text) {
        if (!ansi.enabled()) {
            return text;
        }
        return VERDICT.matcher(text).replaceAll(m -> Matcher.quoteReplacement(ansi.apply(m.group(), styleOf(m.group())).toString()));
    }

    private static List<IStyle> styleOf(String word) {
        return switch (word) {
            case "PASS" -> List.of(Style.fg_green);
            case "warning" -> List.of(Style.fg_yellow);
            default -> List.of(Style.fg_red);
        };
    }

    public void println(String line) {
        out.println(highlight(line));
        out.flush();
    }
}
