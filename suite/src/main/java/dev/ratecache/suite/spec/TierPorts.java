package dev.ratecache.suite.spec;

import java.util.List;

/**
 * The ports a tier's config and process are made with: what {@link NginxRenderer} and
 * {@link NginxServer} read of the stack's ports. The stack's own ports provide it, so that this
 * package needs nothing from the stack.
 */
public interface TierPorts {
    /** The address the tier facing the clients listens on. */
    String listen();

    int front();

    int back();

    int origin();

    int frontStatus();

    int backStatus();

    /** The ports of {@code n} edges behind the balancer, the same on every call. */
    List<Integer> edgePorts(int n);

    /** These ports as edge {@code i} (0-based) of {@code n} sees them: its own port, on the loopback. */
    TierPorts edge(int i, int n);

    /** The command-line flags that give these ports, those at their defaults left out: for "Render it again". */
    List<String> flags();
}
