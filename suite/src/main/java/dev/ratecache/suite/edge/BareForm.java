package dev.ratecache.suite.edge;

import dev.ratecache.suite.spec.StackSpec;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;

/**
 * A product's least caching config, in front of the stack's back tier: what {@code peak --edge}
 * sets its full edge beside on the HIT path, so that the difference is what the suite's features
 * cost. A product brings its own through {@link Edge#bareForm}, and peak needs no edit for it.
 */
public interface BareForm {
    /** What it is, in the words of peak's "bare:" line, e.g. "HAProxy's cache and nothing else". */
    String describe();

    /**
     * Starts it in {@code dir} on {@code port}, in front of {@code spec}'s back tier, and returns
     * once it accepts connections.
     */
    Running start(StackSpec spec, Path dir, int port) throws IOException;

    /** How a bare form starts: {@link #start}'s work. */
    @FunctionalInterface
    interface Starter {
        Running start(StackSpec spec, Path dir, int port) throws IOException;
    }

    /** The bare form {@code describe} names, started by {@code starter}. */
    static BareForm of(String describe, Starter starter) {
        return new BareForm() {
            @Override
            public String describe() {
                return describe;
            }

            @Override
            public Running start(StackSpec spec, Path dir, int port) throws IOException {
                return starter.start(spec, dir, port);
            }
        };
    }

    /** A started bare form: where it answers, its PID for CPU; closing stops it. */
    interface Running extends AutoCloseable {
        URI uri();

        long pid();

        @Override
        void close();

        /** One process of the product answering on the loopback at {@code port}; closing stops it by its PID. */
        static Running of(dev.ratecache.proc.ManagedProcess process, int port) {
            URI uri = URI.create("http://" + dev.ratecache.proc.Ports.LOOPBACK + ":" + port + "/");
            return new Running() {
                @Override public URI uri() { return uri; }
                @Override public long pid() { return process.pid(); }
                @Override public void close() { process.close(); }
            };
        }
    }
}
