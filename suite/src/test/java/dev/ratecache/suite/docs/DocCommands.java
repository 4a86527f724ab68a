package dev.ratecache.suite.docs;

import dev.ratecache.suite.Repo;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The shell commands README.md and docs/ show, as Rust's doc tests take theirs: every line of every
 * {@code ```sh} block. A line's comment may say what it exits with ({@code exits 1}) and, for a
 * command this machine cannot run (several real hosts, a display), what it {@code needs:}. A line
 * that is not a command of this suite must say what it needs, so nothing shown goes untested by
 * accident.
 */
public final class DocCommands {
    private static final Pattern FENCE = Pattern.compile("^```(\\S*)\\s*$");
    private static final Pattern EXITS = Pattern.compile("\\bexits (\\d+)\\b");
    private static final Pattern NEEDS = Pattern.compile("\\bneeds: ([^;)]+)");

    /** One command as the page shows it: where, the command, and what its comment promises. */
    public record Command(String page, int line, String text, List<String> words, int exits, Optional<String> needs) {
        /** The words after {@code ./run-tests.sh}: what the command line is given. */
        public List<String> args() {
            return words.subList(1, words.size());
        }

        /** The subcommand ({@code up}, {@code render}, ...), or "" for the matrix run itself. */
        public String subcommand(List<String> subcommands) {
            return args().isEmpty() || !subcommands.contains(args().get(0)) ? "" : args().get(0);
        }

        public boolean ofThisSuite() {
            return !words.isEmpty() && words.get(0).equals("./run-tests.sh");
        }

        @Override
        public String toString() {
            return page + ":" + line + ": " + text;
        }
    }

    private DocCommands() {}

    /** README.md and every page of docs/, in that order. */
    public static List<Path> pages() {
        Path root = Repo.root();
        try (Stream<Path> docs = Files.list(root.resolve("docs"))) {
            List<Path> pages = new ArrayList<>(List.of(root.resolve("README.md")));
            pages.addAll(docs.filter(p -> p.toString().endsWith(".md")).sorted().toList());
            return pages;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Every command of every page. */
    public static List<Command> all() {
        return pages().stream().flatMap(p -> of(p).stream()).toList();
    }

    /** The commands of one page. */
    public static List<Command> of(Path page) {
        List<String> lines;
        try {
            lines = Files.readAllLines(page, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        String name = Repo.root().relativize(page).toString();
        List<Command> commands = new ArrayList<>();
        String fence = null;
        StringBuilder pending = new StringBuilder();
        int pendingLine = 0;
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            Matcher m = FENCE.matcher(line);
            if (m.matches()) {
                fence = fence == null ? m.group(1) : null;
                continue;
            }
            if (!"sh".equals(fence) || line.isBlank() || line.strip().startsWith("#")) {
                continue;
            }
            if (pending.isEmpty()) {
                pendingLine = i + 1;
            }
            String stripped = line.strip();
            if (stripped.endsWith("\\")) {
                pending.append(stripped, 0, stripped.length() - 1).append(' ');
                continue;
            }
            pending.append(stripped);
            commands.add(command(name, pendingLine, pending.toString()));
            pending.setLength(0);
        }
        return commands;
    }

    public static Command command(String page, int line, String text) {
        int hash = commentStart(text);
        String code = hash < 0 ? text : text.substring(0, hash).strip();
        String comment = hash < 0 ? "" : text.substring(hash + 1);
        Matcher exits = EXITS.matcher(comment);
        Matcher needs = NEEDS.matcher(comment);
        return new Command(page, line, text, words(code), exits.find() ? Integer.parseInt(exits.group(1)) : 0,
                needs.find() ? Optional.of(needs.group(1).strip()) : Optional.empty());
    }

    /** Where the comment starts: a # after a space, outside quotes. */
    private static int commentStart(String text) {
        char quote = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (quote != 0) {
                quote = c == quote ? 0 : quote;
            } else if (c == '\'' || c == '"') {
                quote = c;
            } else if (c == '#' && i > 0 && text.charAt(i - 1) == ' ') {
                return i;
            }
        }
        return -1;
    }

    /** The words as a POSIX shell splits them, for the plain quoting the pages use. */
    static List<String> words(String code) {
        List<String> words = new ArrayList<>();
        StringBuilder word = new StringBuilder();
        boolean inWord = false;
        char quote = 0;
        for (char c : code.toCharArray()) {
            if (quote != 0) {
                if (c == quote) {
                    quote = 0;
                } else {
                    word.append(c);
                }
            } else if (c == '\'' || c == '"') {
                quote = c;
                inWord = true;
            } else if (Character.isWhitespace(c)) {
                if (inWord) {
                    words.add(word.toString());
                    word.setLength(0);
                    inWord = false;
                }
            } else {
                word.append(c);
                inWord = true;
            }
        }
        if (inWord) {
            words.add(word.toString());
        }
        return words;
    }
}
