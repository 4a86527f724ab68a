package dev.ratecache.suite.cli;

import java.io.PrintWriter;
import java.util.List;
import picocli.CommandLine.Option;

/**
 * --dry-run: every check a real run makes before it starts (the input, then the machine: ports,
 * tools, folders), and what it would run, then nothing. As {@code terraform plan} or {@code make -n},
 * it answers "would this command start, and what would it do?" in a second; the docs' commands are
 * tested this way. The exit code is the one the real run would give before it starts: 0, or 2 for
 * bad input.
 */
final class DryRun {
    @Option(names = "--dry-run",
            description = "Check the input and the machine and say what would run, then stop: nothing starts, and no"
                    + " run folder is written. Exit code 0 when the command would start, 2 when it would not.")
    boolean on;

    /** Prints what would run, one line each, and the dry run's last line; the exit code to return. */
    int report(PrintWriter out, List<String> wouldRun) {
        wouldRun.forEach(line -> out.println("would run: " + line));
        out.println("dry run: every check passed; nothing was started");
        out.flush();
        return 0;
    }
}
