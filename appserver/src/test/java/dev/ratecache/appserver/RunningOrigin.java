package dev.ratecache.appserver;

import org.junit.jupiter.api.BeforeEach;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.boot.test.web.server.LocalServerPort;

/** The app started on random ports, reached over real HTTP, with its counters zeroed before each test. */
abstract class RunningOrigin {

    @LocalServerPort
    int port;

    @LocalManagementPort
    int managementPort;

    OriginHttp api;
    OriginHttp management;

    @BeforeEach
    void resetOrigin() {
        api = new OriginHttp(port);
        management = new OriginHttp(managementPort);
        management.delete("/actuator/origin");
    }
}
