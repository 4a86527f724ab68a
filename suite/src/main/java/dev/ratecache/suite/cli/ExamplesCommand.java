package dev.ratecache.suite.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/**
 * A maintainer's command, hidden from --help: writes examples/ afresh from the templates, after a
 * change to them that ExamplesTest reports. Each folder's README.md and inputs are left as they are.
 */
@Command(name = "examples", hidden = true, mixinStandardHelpOptions = true,
        description = "Write the configs of examples/ afresh from the templates (for maintainers: ExamplesTest"
                + " fails until they match).")
final class ExamplesCommand implements Callable<Integer> {
    @Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        for (Example example : Example.values()) {
            example.render(example.committed());
            spec.commandLine().getOut().println(Example.FOLDER + "/" + example.folder());
        }
        return 0;
    }
}
