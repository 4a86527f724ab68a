package dev.ratecache.suite.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import picocli.CommandLine;

/** ./run-tests.sh run in-process, as a test of the command line runs it, with its output kept to read. */
final class CommandRun {
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();
    private CommandLine last;

    /** The exit code of ./run-tests.sh {@code args}. */
    int run(String... args) {
        last = RunTestsCommand.commandLine();
        last.setOut(new PrintWriter(out, true));
        last.setErr(new PrintWriter(err, true));
        return last.execute(args);
    }

    String out() {
        return out.toString();
    }

    String err() {
        return err.toString();
    }

    /** The command line of the last run, to reach its commands' state. */
    CommandLine commandLine() {
        return last;
    }
}
