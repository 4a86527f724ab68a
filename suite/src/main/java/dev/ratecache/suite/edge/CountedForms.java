package dev.ratecache.suite.edge;

import dev.ratecache.suite.spec.StackSpec;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * A product's full front and its bare form as single processes of one thread each, for
 * {@code peak --instructions --edge}: a tool that counts a process's instructions (callgrind) runs
 * each command, so a HIT's price is a count that the machine's load does not move. A product brings
 * its own through {@link Edge#countedForms}, and peak needs no edit for it.
 */
public interface CountedForms {

    /**
     * The most the full front's instructions per HIT may be over the bare form's before the test
     * command's guard fails: the measured ratio and a margin, stated where the product implements it.
     */
    double bound();

    /**
     * Writes both configs into {@code dir}, each serving on a free port of its own in front of
     * {@code spec}'s back tier (which must be running), and returns the full front's command, then
     * the bare form's.
     */
    List<OneProcess> write(StackSpec spec, Path dir) throws IOException;

    /** A command that serves HTTP on {@code port} of the loopback in the foreground until it is stopped. */
    record OneProcess(List<String> command, int port) {}
}
