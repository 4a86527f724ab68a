package dev.ratecache.suite.jmeter;

import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A small HTTP server for a plan's test, answering exactly what the behaviour needs. On 127.0.0.1,
 * so that every 127.0.0.0/8 source address reaches it over the loopback interface.
 */
final class TestServer implements AutoCloseable {
    private final HttpServer server;
    private final ExecutorService handlers;

    private TestServer(HttpServer server, ExecutorService handlers) {
        this.server = server;
        this.handlers = handlers;
    }

    /** Bound (and so accepting) once this returns: no wait needed. */
    static TestServer start(String context, HttpHandler handler) throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 50);
        // One thread per exchange: the default runs handlers one at a time, so a slow request would
        // hold back the others here, at the server, and hide what the plan does.
        ExecutorService handlers = Executors.newCachedThreadPool();
        server.setExecutor(handlers);
        server.createContext(context, handler);
        server.start();
        return new TestServer(server, handlers);
    }

    int port() {
        return server.getAddress().getPort();
    }

    @Override
    public void close() {
        server.stop(0);
        handlers.shutdownNow();
    }
}
