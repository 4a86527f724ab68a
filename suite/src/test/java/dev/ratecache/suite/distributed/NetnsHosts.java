package dev.ratecache.suite.distributed;

import dev.ratecache.proc.ManagedProcess;
import dev.ratecache.testkit.Required;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Hosts on this machine for a test: network namespaces joined to a bridge by veth pairs, each with
 * an address of a /24 of the test's own, the bridge holding .1 in the root namespace (where the
 * test runs). Everything made is named with a prefix of this JVM's own and removed by that name on
 * {@link #close()}, and by a shutdown hook if the JVM dies first. Needs root and {@code ip netns}:
 * {@link #make} skips the test, saying why, without them (under CI it fails instead).
 */
public final class NetnsHosts implements AutoCloseable {
    private final String prefix;
    private final String net;
    private final List<String> namespaces = new ArrayList<>();
    private final List<String> made = new ArrayList<>();
    private final Thread cleanupHook;

    private NetnsHosts(String tag, int second) {
        long pid = ProcessHandle.current().pid();
        // Interface names hold at most 15 characters: "rc", the tag, 5 digits and "br".
        this.prefix = "rc" + tag + (pid % 100_000);
        this.net = second + "." + (1 + pid % 250);
        this.cleanupHook = new Thread(this::removeAll, "netns-cleanup-" + tag);
    }

    /**
     * Makes {@code count} hosts named after {@code tag} (one letter: each test class its own) on
     * 10.{@code second}.x.0/24, x of this JVM's own.
     */
    public static NetnsHosts make(String tag, int second, int count) throws IOException, InterruptedException {
        Required.that(Required.root(), "not root: network namespaces need root");
        Required.that(runs("ip", "netns", "list"), "no ip netns here (iproute2 missing or no namespace support)");
        NetnsHosts hosts = new NetnsHosts(tag, second);
        Runtime.getRuntime().addShutdownHook(hosts.cleanupHook);
        try {
            hosts.build(count);
        } catch (IOException | RuntimeException e) {
            hosts.close();
            throw e;
        }
        return hosts;
    }

    private void build(int count) throws IOException, InterruptedException {
        String bridge = prefix + "br";
        ip("link", "add", bridge, "type", "bridge");
        made.add("link:" + bridge);
        ip("addr", "add", bridgeAddress() + "/24", "dev", bridge);
        ip("link", "set", bridge, "up");
        for (int i = 0; i < count; i++) {
            String ns = prefix + (char) ('a' + i);
            String veth = prefix + "v" + i;
            ip("netns", "add", ns);
            made.add("netns:" + ns);
            namespaces.add(ns);
            ip("link", "add", veth, "type", "veth", "peer", "name", veth + "p");
            made.add("link:" + veth);
            ip("link", "set", veth + "p", "netns", ns);
            ip("link", "set", veth, "master", bridge);
            ip("link", "set", veth, "up");
            ip("netns", "exec", ns, "ip", "addr", "add", address(i) + "/24", "dev", veth + "p");
            ip("netns", "exec", ns, "ip", "link", "set", veth + "p", "up");
            ip("netns", "exec", ns, "ip", "link", "set", "lo", "up");
        }
    }

    /** The root namespace's address on the bridge: where the hosts reach the test's own servers. */
    public String bridgeAddress() {
        return "10." + net + ".1";
    }

    /** Host {@code i}'s address. */
    public String address(int i) {
        return "10." + net + "." + (2 + i);
    }

    /** The hosts' network, as CIDR. */
    public String network() {
        return "10." + net + ".0/24";
    }

    /**
     * What runs a command on host {@code i}: {@code ip netns exec NS}, which execs the command in its
     * place, so a process started through it has the command's own PID.
     */
    public List<String> launcher(int i) {
        return List.of("ip", "netns", "exec", namespaces.get(i));
    }

    @Override
    public void close() {
        removeAll();
        try {
            Runtime.getRuntime().removeShutdownHook(cleanupHook);
        } catch (IllegalStateException shuttingDown) {
            // The hook is running or ran: the work is done.
        }
    }

    /** Removes what was made, by name, newest first; what is gone already (a veth goes with its peer's namespace) is skipped. */
    private synchronized void removeAll() {
        for (int i = made.size() - 1; i >= 0; i--) {
            String[] what = made.get(i).split(":", 2);
            try {
                if (what[0].equals("netns")) {
                    run(false, "ip", "netns", "delete", what[1]);
                } else {
                    run(false, "ip", "link", "delete", what[1]);
                }
            } catch (Exception e) {
                // Gone already: nothing left to remove.
            }
        }
        made.clear();
    }

    private static void ip(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("ip"));
        command.addAll(List.of(args));
        run(true, command.toArray(String[]::new));
    }

    private static boolean runs(String... command) {
        try {
            run(true, command);
            return true;
        } catch (Exception e) {
            return false;
        }
    }

    private static void run(boolean check, String... command) throws IOException, InterruptedException {
        ManagedProcess.Outcome ran = ManagedProcess.run(List.of(command), Duration.ofMinutes(1));
        if (check) {
            ran.stdoutIfSucceeded();
        }
    }
}
