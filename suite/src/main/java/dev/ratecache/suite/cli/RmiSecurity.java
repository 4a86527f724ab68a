package dev.ratecache.suite.cli;

import dev.ratecache.suite.distributed.LoadHosts;
import java.io.IOException;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/** How the controller and the load hosts' JMeter servers talk: RMI over SSL with a shared keystore, or plain. */
final class RmiSecurity {
    @Option(names = "--rmi-keystore", paramLabel = "FILE",
            description = "The keystore for RMI over SSL: the same file on the controller and on every load host (made"
                    + " with keytool, alias rmi, when missing). Default: .tools/rmi/rmi_keystore.jks in the checkout.")
    Path keystore;

    @Option(names = "--rmi-plain",
            description = "RMI without SSL, on the controller and on every load host alike: anyone who reaches their"
                    + " ports can drive the JMeter servers. Only on a network you trust.")
    boolean plain;

    boolean plain() {
        return plain;
    }

    /** The keystore to use, made if missing; null for plain RMI. */
    Path keystore() throws IOException, InterruptedException {
        return plain ? null : LoadHosts.ensureKeystore(keystore != null ? keystore : LoadHosts.defaultKeystore());
    }
}
