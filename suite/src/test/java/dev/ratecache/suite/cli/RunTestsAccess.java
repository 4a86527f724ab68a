package dev.ratecache.suite.cli;

import java.io.PrintWriter;
import picocli.CommandLine;

/** Runs the command line in-process, as ./run-tests.sh would, for tests in other packages. */
public final class RunTestsAccess {
    private RunTestsAccess() {}

    public static int execute(PrintWriter out, String... args) {
        CommandLine cli = RunTestsCommand.commandLine();
        cli.setOut(out);
        cli.setErr(out);
        return cli.execute(args);
    }
}
