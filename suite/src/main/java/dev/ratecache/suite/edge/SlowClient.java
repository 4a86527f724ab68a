package dev.ratecache.suite.edge;

import java.util.Locale;

/**
 * The three slow-client attacks of --matrix attacks, as slowhttptest names them: each ties up a
 * connection of the edge for as long as the edge lets it, at a byte's cost a second.
 */
public enum SlowClient {
    /** Slowloris: a request line, then one header line a second, the blank line that ends them never sent. */
    HEADERS,
    /** A POST whose Content-Length promises 64 KiB, its body sent a byte a second. */
    BODY,
    /** Requests pipelined at once, their responses read a few bytes at a time through a tiny receive window. */
    READ;

    /** As a cell's name says it: slow-headers, slow-body, slow-read. */
    @Override
    public String toString() {
        return "slow-" + name().toLowerCase(Locale.ROOT);
    }
}
