package dev.ratecache.suite.distributed;

import dev.ratecache.suite.Repo;
import dev.ratecache.proc.ManagedProcess;
import java.io.IOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The load hosts of a distributed run (--load-hosts HOST[:PORT],...): JMeter servers already
 * running there (./run-tests.sh load-server), which JMeter's own distributed mode (-R) drives. The
 * suite adds nothing to how the load is spread: it checks the hosts before anything starts and
 * hands them to JMeter.
 *
 * @param hosts      host:port of each JMeter server, as JMeter's -R takes them
 * @param keystore   the RMI keystore both ends share; null for plain RMI (--rmi-plain)
 * @param clientPort the controller's own RMI port, which the servers call back with results
 */
public record LoadHosts(List<String> hosts, Path keystore, int clientPort) {
    /** JMeter's default registry port on a load host (server_port). */
    public static final int DEFAULT_PORT = 1099;
    /** JMeter's own default password for the keystore bin/create-rmi-keystore makes; the file is what is secret. */
    public static final String KEYSTORE_PASSWORD = "changeit";
    private static final Pattern HOST = Pattern.compile("[A-Za-z0-9.-]+|\\[[0-9a-fA-F:]+\\]");

    /** The keystore the suite makes when none is given: beside the checkout's tools, ignored by git. */
    public static Path defaultKeystore() {
        return Repo.root().resolve(".tools/rmi/rmi_keystore.jks");
    }

    /** host:port for each entry of {@code list} (the port defaulting to 1099); bad entries go to {@code problems}. */
    public static List<String> parse(List<String> list, List<String> problems) {
        List<String> out = new ArrayList<>();
        for (String entry : list) {
            String host = entry;
            int port = DEFAULT_PORT;
            int colon = entry.lastIndexOf(':');
            if (colon > 0 && !entry.endsWith("]")) {
                host = entry.substring(0, colon);
                try {
                    port = Integer.parseInt(entry.substring(colon + 1));
                } catch (NumberFormatException e) {
                    port = -1;
                }
            }
            if (!HOST.matcher(host).matches() || port < 1 || port > 65535) {
                // What comes before an @ is a user and password, masked as --fleet-redis masks them.
                String masked = entry.contains("@") ? "***" + entry.substring(entry.lastIndexOf('@')) : entry;
                problems.add("--load-hosts takes HOST[:PORT],... (got '" + dev.ratecache.accesslog.Printable.shown(masked)
                        + "')");
            } else {
                out.add(host + ":" + port);
            }
        }
        if (out.stream().distinct().count() != out.size()) {
            problems.add("--load-hosts names a host twice: give each JMeter server once");
        }
        return out;
    }

    /** Why {@code hostPort} can't be used, in one line naming it; empty when a server accepts there. */
    public static java.util.Optional<String> unreachable(String hostPort) {
        int colon = hostPort.lastIndexOf(':');
        String host = hostPort.substring(0, colon);
        int port = Integer.parseInt(hostPort.substring(colon + 1));
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(host, port), 3000);
            return java.util.Optional.empty();
        } catch (IOException e) {
            return java.util.Optional.of("load host " + host + " port " + port + " is unreachable (" + e.getMessage()
                    + "): start ./run-tests.sh load-server --port " + port + " there and open TCP " + port
                    + " and its RMI port to this machine");
        }
    }

    /** The address of this machine that {@code hostPort} is reached from: what the servers call back. */
    public static String localAddressTowards(String hostPort) throws IOException {
        int colon = hostPort.lastIndexOf(':');
        try (DatagramSocket probe = new DatagramSocket()) {
            // A UDP "connect" sends nothing: it only asks the kernel which route, so which address, it would use.
            probe.connect(InetAddress.getByName(hostPort.substring(0, colon)), 9);
            return probe.getLocalAddress().getHostAddress();
        }
    }

    /**
     * The keystore at {@code file}, made with keytool if it is missing: a key pair under the alias
     * rmi, as JMeter's bin/create-rmi-keystore makes it. Both ends use the same file as keystore and
     * truststore, so copy it to each load host. Several processes may ask at once (load servers
     * started together on one machine): each makes its own file and the first to link it into place
     * wins, so every one of them ends up with the same, complete keystore.
     */
    public static Path ensureKeystore(Path file) throws IOException, InterruptedException {
        if (Files.isRegularFile(file)) {
            return file;
        }
        Path target = file.toAbsolutePath();
        Files.createDirectories(target.getParent());
        String mine = target.getFileName() + "." + ProcessHandle.current().pid() + "-" + System.nanoTime();
        Path made = target.resolveSibling(mine);
        Path keytool = Path.of(ManagedProcess.javaBinary()).resolveSibling("keytool");
        List<String> command = List.of(Files.isExecutable(keytool) ? keytool.toString() : "keytool",
                "-genkeypair", "-alias", "rmi", "-keyalg", "RSA", "-keysize", "2048", "-validity", "3650",
                "-dname", "CN=rmi, OU=ratecache load hosts", "-keystore", made.toString(),
                "-storetype", "JKS", "-storepass", KEYSTORE_PASSWORD, "-keypass", KEYSTORE_PASSWORD);
        Path log = target.resolveSibling(mine + ".keytool.out");
        try {
            try (ManagedProcess p = ManagedProcess.start("keytool", command, target.getParent(), log)) {
                if (p.waitFor(Duration.ofMinutes(1)) != 0) {
                    throw new IOException("keytool could not create " + file + ":\n" + p.logTail(5));
                }
            }
            // Who holds this file can talk to the load hosts' JMeter servers.
            try {
                Files.setPosixFilePermissions(made, java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
            } catch (UnsupportedOperationException ignored) {
                // Not a POSIX file system: its own permissions apply.
            }
            try {
                // link(2) fails if the name exists: one keystore wins, never half of one.
                Files.createLink(target, made);
            } catch (java.nio.file.FileAlreadyExistsException another) {
                // Another process made it first: use that one.
            }
        } finally {
            Files.deleteIfExists(made);
            Files.deleteIfExists(log);
        }
        return file;
    }

    /** JMeter -J/-D arguments for RMI over SSL with {@code keystore}, or plain RMI when it is null. */
    public static List<String> rmiArguments(Path keystore) {
        if (keystore == null) {
            return List.of("-Jserver.rmi.ssl.disable=true");
        }
        String file = keystore.toAbsolutePath().toString();
        return List.of("-Jserver.rmi.ssl.keystore.file=" + file, "-Jserver.rmi.ssl.truststore.file=" + file,
                "-Jserver.rmi.ssl.keystore.password=" + KEYSTORE_PASSWORD,
                "-Jserver.rmi.ssl.truststore.password=" + KEYSTORE_PASSWORD,
                "-Jserver.rmi.ssl.keystore.alias=rmi");
    }

    public boolean ssl() {
        return keystore != null;
    }
}
