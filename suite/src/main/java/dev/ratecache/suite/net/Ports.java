package dev.ratecache.suite.net;

import java.io.IOException;
import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.Optional;

/** Port checks done before anything starts, and free ports for tests. */
public final class Ports {
    private Ports() {}

    public static final String LOOPBACK = "127.0.0.1";

    /** A port that was free on 127.0.0.1 a moment ago. */
    public static int free() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName(LOOPBACK))) {
            socket.setReuseAddress(true);
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new IllegalStateException("no free port on " + LOOPBACK, e);
        }
    }

    /**
     * Why {@code port} can't be bound on 127.0.0.1 by this user, naming the flag that changes it;
     * empty when it can.
     */
    public static Optional<String> problem(int port, String flag) {
        if (port < 1 || port > 65535) {
            return Optional.of("port " + port + " is not a TCP port (1-65535): change " + flag);
        }
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(true);
            socket.bind(new InetSocketAddress(InetAddress.getByName(LOOPBACK), port));
            return Optional.empty();
        } catch (BindException e) {
            String why = String.valueOf(e.getMessage()).toLowerCase();
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
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(LOOPBACK, port), (int) Duration.ofMillis(500).toMillis());
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
