package dev.ratecache.suite.cli;

import java.util.List;
import picocli.CommandLine;

/** Stops a command before anything starts, with every problem found, one line each (exit code 2). */
final class Refuse {
    private Refuse() {}

    static void ifAny(CommandLine.Model.CommandSpec spec, List<String> problems) {
        if (!problems.isEmpty()) {
            throw new CommandLine.ParameterException(spec.commandLine(), String.join("\n  ", problems));
        }
    }
}
