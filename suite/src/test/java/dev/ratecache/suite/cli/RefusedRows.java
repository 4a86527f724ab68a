package dev.ratecache.suite.cli;

import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.provider.Arguments;

/**
 * The rows of the per-command tables of refused input: what is wrong, the arguments that say it,
 * and what the one line must say. The stack's flags are the same mixin in every command, so the
 * rows for them are written once here and each command's table takes them.
 */
final class RefusedRows {
    private RefusedRows() {}

    static Arguments refused(String what, List<String> args, String... said) {
        return Arguments.of(what, args, List.of(said));
    }

    /** Every bad form of --origin, the password masked: the same line whichever command took the flag. */
    static Stream<Arguments> origins() {
        return Stream.of(
                refused("origin with a user and password, masked", List.of("--origin", "http://user:secret@127.0.0.1:9000"),
                        "'http://user:***@127.0.0.1:9000' holds a user or password, which the tiers would not send"),
                refused("origin on a port above 65535", List.of("--origin", "http://127.0.0.1:70000"),
                        "'http://127.0.0.1:70000' has port 70000, not a TCP port (1-65535)"),
                refused("origin that is no URL at all", List.of("--origin", "http://127.0.0.1:9000;}"),
                        "'http://127.0.0.1:9000;}' is not a URL: give http://host:port"));
    }

    /** A log of lines each past the longest line read ({@code pastLimit}): refused alike by every command that reads logs. */
    static Stream<Arguments> linesPastTheLimit(Path pastLimit) {
        return Stream.of(
                refused("a log whose first lines are each past the longest line read", List.of(pastLimit.toString()),
                        pastLimit + ": the first 2 lines are each longer than 1 MiB (1048576 characters), the most a"
                                + " line may have; line 1: \"198.51.100.1 - - [20/Nov/2026:10:00:00 +0000] \"GET /a",
                        "\\x1b[2J"),
                refused("a combined log of lines past the longest line read",
                        List.of(pastLimit.toString(), "--log-format", "combined"),
                        pastLimit + ": 2 of 2 lines (100.0 %) are not nginx combined (limit 1 %); line 1 is longer than"
                                + " 1 MiB (1048576 characters), the most a line may have: \"198.51.100.1 - - "));
    }
}
