package dev.ratecache.accesslog;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * A file a user names on the command line, read the one way every command reads one. Only a
 * regular file is read: a device such as /dev/zero never ends and a pipe may never send, so either
 * would fill the memory or hang before a word was said. And no more than a bound is read, past
 * which the file is refused saying so. Each refusal is one line ending in the fix; the caller puts
 * the flag in front.
 */
public final class UserFile {
    /** Enough for any file of checks, certificates or keys a user writes by hand. */
    public static final long SMALL = 1L << 20;
    /** For a list of keys, which a user exports from a database: a million keys of 16 bytes. */
    public static final long KEYS = 64L << 20;

    private UserFile() {}

    /** A file that cannot be read as a user's file: the message is one line, the value in it escaped and cut short. */
    public static final class Refused extends IOException {
        private static final long serialVersionUID = 1L;

        public Refused(String message) {
            super(message);
        }
    }

    /**
     * What is wrong with {@code file} as a file to read, one line that starts with its name; empty
     * when it is a regular file. Follows links, as opening it would.
     */
    public static Optional<String> problem(Path file) {
        String name = Printable.shown(file.toString());
        if (file.toString().isBlank()) {
            return Optional.of("'" + name + "' names no file: give the path of one");
        }
        if (Files.isRegularFile(file)) {
            return Optional.empty();
        }
        if (Files.isDirectory(file)) {
            return Optional.of(name + " is a directory, not a file");
        }
        if (!Files.exists(file)) {
            return Optional.of(name + " does not exist");
        }
        return Optional.of(name + " is not a regular file (a device, a pipe or a socket), which may never end:"
                + " give a file, or copy what it gives into one");
    }

    /** Its bytes, at most {@code maxBytes}. @throws Refused for what {@link #problem} says, or a file past the bound */
    public static byte[] bytes(Path file, long maxBytes) throws IOException {
        Optional<String> problem = problem(file);
        if (problem.isPresent()) {
            throw new Refused(problem.get());
        }
        try (InputStream in = Files.newInputStream(file)) {
            // One byte past the bound tells a file at the bound from a longer one, whatever its size said.
            byte[] read = in.readNBytes((int) Math.min(Integer.MAX_VALUE - 8, maxBytes + 1));
            if (read.length > maxBytes) {
                throw new Refused(Printable.shown(file.toString()) + " is larger than " + size(maxBytes)
                        + ", the most read: give a smaller file");
            }
            return read;
        } catch (NoSuchFileException e) {
            throw new Refused(Printable.shown(file.toString()) + " does not exist");
        } catch (AccessDeniedException e) {
            throw new Refused(Printable.shown(file.toString()) + " cannot be read (permission denied)");
        }
    }

    /** Its text in UTF-8. @throws CharacterCodingException when it is not UTF-8 */
    public static String utf8(Path file, long maxBytes) throws IOException {
        return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT)
                .decode(java.nio.ByteBuffer.wrap(bytes(file, maxBytes))).toString();
    }

    /** Its lines in UTF-8, as Files.readAllLines splits them. */
    public static List<String> lines(Path file, long maxBytes) throws IOException {
        List<String> lines = new ArrayList<>(List.of(utf8(file, maxBytes).split("\\r\\n|\\n|\\r", -1)));
        // A final line break ends the last line; it starts no empty one.
        if (lines.get(lines.size() - 1).isEmpty()) {
            lines.remove(lines.size() - 1);
        }
        return lines;
    }

    static String size(long bytes) {
        return bytes % (1L << 20) == 0 ? bytes / (1L << 20) + " MiB" : String.format(Locale.ROOT, "%d bytes", bytes);
    }
}
