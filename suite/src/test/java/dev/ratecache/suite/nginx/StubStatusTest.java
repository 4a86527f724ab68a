package dev.ratecache.suite.nginx;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** nginx's stub_status page, as up's status line, the faults' injector and the attacks' count read it. */
class StubStatusTest {
    @Test
    void aPageGivesEveryCounter() {
        String page = "Active connections: 3 \nserver accepts handled requests\n 17 16 42 \nReading: 0 Writing: 1 Waiting: 2 \n";

        assertThat(StubStatus.parse(page)).contains(new StubStatus(3, 17, 16, 42, 0, 1, 2));
    }

    @Test
    void anythingElseIsNoPage() {
        assertThat(StubStatus.parse("<html>404</html>")).isEmpty();
        assertThat(StubStatus.parse("Active connections: 3 \nserver accepts handled requests\n 17 16 42 \n")).isEmpty();
        assertThat(StubStatus.parse(null)).isEmpty();
    }
}
