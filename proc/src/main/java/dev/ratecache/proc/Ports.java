package dev.ratecache.proc;

import java.io.IOException;
import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;

/** Port checks done before anything starts, and free ports for tests. */
public final class Ports {
    private Ports() {}

    public static final String LOOPBACK = "127.0.0.1";

    /** Where free ports are looked for: below the kernel's ephemeral range. */
    private static final int LOWEST = 10_000;
    private static final Set<Integer> HANDED_OUT = ConcurrentHashMap.newKeySet();

    /**
     * A port that was free on 127.0.0.1 a moment ago, and that no other call in this JVM has
     * returned. It comes from below the kernel's ephemeral range (ip_local_port_range): a port
     * from inside it (what binding port 0 gives) can be taken, before its server binds it, as the
     * local end of any outgoing connection on the machine, such as JMeter's or nginx's own.
     */
    public static int free() {
        int below = ephemeralRangeStart();
        if (below - LOWEST < 1_000) {
            return anyFree();
        }
        int span = below - LOWEST;
        int start = ThreadLocalRandom.current().nextInt(span);
        Stripe stripe = Stripe.of(System.getProperty(STRIPE));
        for (int i = 0; i < span; i++) {
            int port = LOWEST + (start + i) % span;
            if (stripe.holds(port) && !HANDED_OUT.contains(port) && problem(port, "").isEmpty() && HANDED_OUT.add(port)) {
                return port;
            }
        }
        return anyFree();
    }

    /**
     * The system property that gives a JVM its own share of the free ports, {@code K/N} (the K-th of
     * N, from 1): the stack tests run in several JVMs at once, and one JVM cannot see the ports another
     * has handed out but not yet bound. Unset: every port.
     */
    public static final String STRIPE = "ratecache.port-stripe";

    record Stripe(int index, int count) {
        static Stripe of(String text) {
            if (text == null || text.isBlank()) {
                return new Stripe(0, 1);
            }
            String[] kn = text.trim().split("/");
            int k = Integer.parseInt(kn[0].trim());
            int n = Integer.parseInt(kn[1].trim());
            if (n < 1 || k < 1 || k > n) {
                throw new IllegalArgumentException(STRIPE + "=" + text + ": expected K/N with 1 <= K <= N");
            }
            return new Stripe(k - 1, n);
        }

        boolean holds(int port) {
            return port % count == index;
        }
    }

    private static int anyFree() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName(LOOPBACK))) {
            socket.setReuseAddress(true);
            HANDED_OUT.add(socket.getLocalPort());
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new IllegalStateException("no free port on " + LOOPBACK, e);
        }
    }

    private static int ephemeralRangeStart() {
        return sysctl("net.ipv4.ip_local_port_range").orElse(32_768); // Linux's default
    }

    /**
     * The first number of a kernel setting such as {@code net.ipv4.ip_local_port_range}, read
     * from /proc/sys; empty where there is no such file (not Linux) or no number in it.
     */
    public static OptionalInt sysctl(String name) {
        try {
            // readAllLines, not readString: /proc/sys files report a size of 0, and readString
            // may then stop after the first byte.
            List<String> lines = Files.readAllLines(Path.of("/proc/sys", name.split("\\.")));
            return lines.isEmpty() ? OptionalInt.empty()
                    : OptionalInt.of(Integer.parseInt(lines.get(0).trim().split("\\s+")[0]));
        } catch (IOException | NumberFormatException e) {
            return OptionalInt.empty();
        }
    }

    /**
     * Why {@code port} can't be bound on 127.0.0.1 by this user, naming the flag that changes it;
     * empty when it can.
     */
    public static Optional<String> problem(int port, String flag) {
        return problem(LOOPBACK, port, flag);
    }

    /** Why {@code port} can't be a TCP port at all, naming the flag; empty when it can. Binds nothing. */
    public static Optional<String> notATcpPort(int port, String flag) {
        return port < 1 || port > 65535
                ? Optional.of("port " + port + " is not a TCP port (1-65535): change " + flag)
                : Optional.empty();
    }

    /** Why {@code port} can't be bound on {@code address} by this user, naming the flag; empty when it can. */
    public static Optional<String> problem(String address, int port, String flag) {
        Optional<String> notAPort = notATcpPort(port, flag);
        if (notAPort.isPresent()) {
            return notAPort;
        }
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(true);
            socket.bind(new InetSocketAddress(InetAddress.getByName(address), port));
            return Optional.empty();
        } catch (BindException e) {
            String why = String.valueOf(e.getMessage()).toLowerCase();
            if (why.contains("assign")) {
                return Optional.of("address " + address + " is not one of this machine's (port " + port + ", " + flag
                        + "): give an address of one of its interfaces");
            }
            if (why.contains("permission")) {
                return Optional.of("port " + port + " needs root (ports below 1024 are privileged):"
                        + " run as root or choose another with " + flag + " (e.g. " + flag + " 8000)");
            }
            return Optional.of("port " + port + " is already in use: stop what uses it or choose another with "
                    + flag);
        } catch (IOException e) {
            return Optional.of("port " + port + " cannot be bound (" + e.getMessage() + "): change " + flag);
        }
    }

    /** True when something accepts connections on 127.0.0.1:port. */
    public static boolean accepting(int port) {
        return accepting(LOOPBACK, port);
    }

    /** True when something accepts connections on address:port. */
    public static boolean accepting(String address, int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(address, port), (int) Duration.ofMillis(500).toMillis());
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
