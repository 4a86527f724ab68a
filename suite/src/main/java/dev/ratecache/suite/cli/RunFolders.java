package dev.ratecache.suite.cli;

import dev.ratecache.accesslog.Printable;
import dev.ratecache.suite.up.UpState;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Optional;

/** Where the commands write: one folder per run, named for the second it started, under --results. */
final class RunFolders {
    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss");

    private RunFolders() {}

    /** The results folder: {@code given} (--results) or results/ in the checkout. */
    static Path results(Path given) {
        return given != null ? given : UpState.defaultResults();
    }

    /** What nginx's config takes in a path unquoted, as the tiers' configs name the run folder's files. */
    private static final java.util.regex.Pattern NGINX_UNSAFE = java.util.regex.Pattern.compile("[\\s\"';{}#$\\\\]");

    /**
     * One line when {@code dir} cannot be the folder a command writes in: it names no folder (empty
     * or blank: the current one, by accident), it is the filesystem's root, it holds a control
     * character (a line break would split every line that names it), or it or a folder above it is
     * a file; empty when it is a folder or can be made one. Checked before anything starts, since
     * the folder is made only once the run does.
     *
     * @param name what named the folder, for the line: "--results", or "DIR" for an argument
     */
    static Optional<String> notAFolder(Path dir, String name) {
        String given = dir.toString();
        String example = name.equals("DIR") ? "./run-tests.sh render out" : name + " out";
        if (given.isBlank()) {
            return Optional.of(name + " '" + Printable.shown(given) + "' names no folder (it would be the current"
                    + " one): give the folder to write to, e.g. " + example);
        }
        Path absolute = dir.toAbsolutePath().normalize();
        if (absolute.getNameCount() == 0) {
            return Optional.of(name + " " + Printable.shown(given) + " is the filesystem's root: give a folder of its"
                    + " own to write to, e.g. " + example);
        }
        if (!Printable.isPrintable(given)) {
            return Optional.of(name + " '" + Printable.shown(given) + "' holds a control character (a line break, an"
                    + " escape): give a path without one");
        }
        for (Path p = absolute; p != null; p = p.getParent()) {
            if (Files.isDirectory(p)) {
                return Optional.empty();
            }
            if (Files.exists(p)) {
                return Optional.of(name + " " + Printable.shown(given) + (p.equals(absolute) ? "" : ": "
                        + Printable.shown(p.toString())) + " is a file, not a folder: give a folder, or a path where"
                        + " one can be made");
            }
        }
        return Optional.empty();
    }

    /**
     * As {@link #notAFolder}, for a folder whose paths go into nginx's configs (a run's, up's):
     * nginx would take a space, a quote or one of ; { } # $ \ as the end of the path or of the
     * directive, and fail only once the origin is up. Refused here, so a dry run says it too.
     *
     * @param given --results as given; null for the default, results/ in the checkout
     */
    static Optional<String> notAFolderForTheTiers(Path given) {
        return given == null ? notAFolder(results(null), "--results") : notAFolderForTheTiers(given, "--results");
    }

    /** As {@link #notAFolderForTheTiers(Path)}, for a folder {@code dir} named by the flag {@code name}. */
    static Optional<String> notAFolderForTheTiers(Path dir, String name) {
        Optional<String> problem = notAFolder(dir, name);
        if (problem.isPresent()) {
            return problem;
        }
        java.util.regex.Matcher unsafe = NGINX_UNSAFE.matcher(dir.toAbsolutePath().normalize().toString());
        if (unsafe.find()) {
            String what = Character.isWhitespace(unsafe.group().charAt(0)) ? "a space" : "'" + unsafe.group() + "'";
            return Optional.of(name + " '" + Printable.shown(dir.toString()) + "' holds " + what + ", which the tiers'"
                    + " configs cannot take in a path: give a folder whose path has no spaces, quotes or any of"
                    + " ; { } # $ \\");
        }
        return Optional.empty();
    }

    /**
     * A run folder that does not exist yet under {@code results}: {@code prefix} and the time, with
     * -2, -3, ... appended when a run of the same second has it already.
     */
    static Path next(Path results, String prefix) {
        String name = prefix + LocalDateTime.now().format(STAMP);
        Path dir = results.resolve(name);
        for (int n = 2; Files.exists(dir); n++) {
            dir = results.resolve(name + "-" + n);
        }
        return dir;
    }

    /**
     * Removes {@code dir} and all it holds, as far as it can: a command's own scratch folder, whose
     * leftovers are harmless and no reason to fail what the command did.
     */
    static void deleteQuietly(Path dir) {
        try (java.util.stream.Stream<Path> walk = Files.walk(dir)) {
            walk.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (java.io.IOException e) {
            // A leftover scratch folder is harmless.
        }
    }
}
