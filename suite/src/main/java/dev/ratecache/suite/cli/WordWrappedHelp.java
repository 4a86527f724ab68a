package dev.ratecache.suite.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine;
import picocli.CommandLine.Model.UsageMessageSpec;

/**
 * --help wrapped between words only. picocli breaks lines where Java's line BreakIterator allows,
 * which is also after a dot or a hyphen: "./run-tests.sh" came out as "." and "/run-tests.sh",
 * "--key-field" could split after "--key-", and a user copying from the terminal got a broken
 * command. Here each section is rendered by picocli unwrapped, then wrapped at spaces alone, with
 * picocli's own hanging indents; an example line (one that starts with a command) is never wrapped.
 */
final class WordWrappedHelp {
    /** Wide enough that picocli wraps nothing: every section comes back one line per paragraph or row. */
    private static final int UNWRAPPED = 10_000;

    /** How much deeper than its first line picocli indents a wrapped table cell. */
    private static final int HANGING = 2;

    /** The least room an example's explanation needs beside its command to be wrapped there. */
    private static final int MIN_ROOM = 20;

    /** A table row: a label (option, command, exit code), then two or more spaces, then its text. */
    private static final Pattern ROW = Pattern.compile("^( *)(\\S+(?: \\S+)*?) {2,}(?=\\S)");

    /** An example: a command to copy, kept on one line whatever the width. */
    private static final Pattern EXAMPLE = Pattern.compile("^ +(\\./|java )");

    private WordWrappedHelp() {}

    /** Wraps every section of {@code cli}'s help and its subcommands', at spaces only. */
    static void install(CommandLine cli) {
        Map<String, CommandLine.IHelpSectionRenderer> sections = cli.getHelpSectionMap();
        for (String key : List.copyOf(sections.keySet())) {
            sections.put(key, wrapped(key, sections.get(key)));
        }
        cli.setHelpSectionMap(sections);
        cli.getSubcommands().values().forEach(WordWrappedHelp::install);
    }

    /** {@code picocli}'s section {@code key}, rendered unwrapped and wrapped at spaces alone. */
    static CommandLine.IHelpSectionRenderer wrapped(String key, CommandLine.IHelpSectionRenderer picocli) {
        return help -> {
            UsageMessageSpec usage = help.commandSpec().usageMessage();
            // The terminal's width, when autoWidth asks for it: read before the width is widened.
            int width = usage.width();
            boolean auto = usage.autoWidth();
            usage.autoWidth(false);
            usage.width(UNWRAPPED);
            String text;
            try {
                text = picocli.render(help);
            } finally {
                usage.width(width);
                usage.autoWidth(auto);
            }
            if (!key.equals(UsageMessageSpec.SECTION_KEY_SYNOPSIS)) {
                return wrap(text, width, -1);
            }
            // The synopsis follows its heading ("Usage: ") on the same line: wrapped together.
            String heading = help.synopsisHeading();
            String command = help.commandSpec().qualifiedName();
            return wrap(heading + text, width, heading.length() + command.length() + 1).substring(heading.length());
        };
    }

    /**
     * {@code text} with each line longer than {@code width} broken at spaces. The next lines of a
     * table row start under its text, {@value #HANGING} deeper; of an indented paragraph, the same
     * depth; of the synopsis, {@code synopsisIndent}. An example's command is never broken (only the
     * words that explain it), and a word longer than the room left stands alone.
     */
    static String wrap(String text, int width, int synopsisIndent) {
        StringBuilder out = new StringBuilder(text.length() + 64);
        String[] lines = text.split("\n", -1);
        int column = textColumn(lines);
        for (int i = 0; i < lines.length; i++) {
            if (i > 0) {
                out.append('\n');
            }
            String line = lines[i];
            if (line.length() <= width) {
                out.append(line);
                continue;
            }
            int leading = line.length() - line.stripLeading().length();
            Matcher row = ROW.matcher(line);
            boolean found = row.find();
            boolean isRow = found && row.end() < width / 2;
            int keep = leading;
            int indent;
            if (EXAMPLE.matcher(line).find()) {
                // An example's explanation may start well to the right: wrapped there while room is left.
                if (!found || row.end() > width - MIN_ROOM) {
                    out.append(line);
                    continue;
                }
                keep = row.end();
                indent = row.end() + HANGING;
            } else if (synopsisIndent >= 0) {
                indent = synopsisIndent;
            } else if (leading > 0 && column > 0 && leading < column && line.length() > column
                    && line.charAt(column - 1) == ' ') {
                // A row of the table, its label as wide as the label column (one space before its text). A
                // paragraph at the margin is prose, whatever falls at that column: up's description had been
                // wrapped under its examples' text.
                indent = column + HANGING;
            } else if (isRow) {
                indent = row.end() + HANGING;
            } else {
                indent = leading > HANGING ? leading + HANGING : leading;
            }
            out.append(String.join("\n", broken(line, width, keep, indent)));
        }
        return out.toString();
    }

    /** Where a table's text starts: the column most of its rows put their text in; 0 for no table. */
    private static int textColumn(String[] lines) {
        Map<Integer, Long> ends = java.util.Arrays.stream(lines).map(ROW::matcher).filter(Matcher::find)
                .collect(java.util.stream.Collectors.groupingBy(Matcher::end, java.util.stream.Collectors.counting()));
        return ends.entrySet().stream().filter(e -> e.getValue() > 1).max(Map.Entry.comparingByValue())
                .map(Map.Entry::getKey).orElse(0);
    }

    /** {@code line} broken at spaces, its first {@code keep} characters together on the first line. */
    private static List<String> broken(String line, int width, int keep, int indent) {
        List<String> out = new ArrayList<>();
        String pad = " ".repeat(indent);
        StringBuilder current = new StringBuilder(line.substring(0, keep));
        int at = keep;
        while (at < line.length()) {
            int space = line.indexOf(' ', at);
            int end = space < 0 ? line.length() : space;
            int next = end;
            while (next < line.length() && line.charAt(next) == ' ') {
                next++;
            }
            String word = line.substring(at, end);
            if (current.length() > keep && current.length() + word.length() > width) {
                out.add(current.toString().stripTrailing());
                current = new StringBuilder(pad);
                keep = indent;
            }
            current.append(word);
            // The first line keeps its gaps (a row's, between label and text); the others, one space.
            current.append(out.isEmpty() || next == end ? line.substring(end, next) : " ");
            at = next;
        }
        out.add(current.toString().stripTrailing());
        return out;
    }
}
