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

    /**
     * What is wrong with --rmi-keystore before anything starts: a missing file is made, but a folder
     * or a device would fail keytool or the JVM's SSL half way through starting the hosts.
     */
    java.util.Optional<String> problem() {
        if (plain || keystore == null || !java.nio.file.Files.exists(keystore)) {
            return java.util.Optional.empty();
        }
        return dev.ratecache.accesslog.UserFile.problem(keystore).map(p -> "--rmi-keystore " + p);
    }

    /** The keystore to use, made if missing; null for plain RMI. */
    Path keystore() throws IOException, InterruptedException {
        return plain ? null : LoadHosts.ensureKeystore(keystore != null ? keystore : LoadHosts.defaultKeystore());
    }
}
