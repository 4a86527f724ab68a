package dev.ratecache.suite.up;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The state file: one claim wins, a stale one is cleaned up, a reused PID is not taken for the up. */
class UpStateTest {
    @TempDir
    Path results;

    @Test
    void onlyTheFirstClaimWinsUntilItIsRemoved() throws IOException {
        Path run = Files.createDirectories(results.resolve("up-1"));
        UpState first = UpState.self(run);
        assertThat(first.claim(results)).isTrue();
        assertThat(UpState.self(run).claim(results)).isFalse();

        first.with(List.of(UpState.Child.of("front", ProcessHandle.current().pid())), Map.of("front", "http://x:1"),
                Map.of("front", 1)).write(results);
        UpState read = UpState.read(UpState.pointer(results)).orElseThrow();
        assertThat(read.url("front")).contains("http://x:1");
        assertThat(read.liveChildren()).hasSize(1);
        assertThat(run.resolve(UpState.FILE)).exists();

        read.remove(results);
        assertThat(UpState.pointer(results)).doesNotExist();
        assertThat(run.resolve(UpState.FILE)).doesNotExist();
        assertThat(UpState.self(run).claim(results)).isTrue();
    }

    @Test
    void aStateWhoseProcessIsGoneIsStaleAndRemoved() throws Exception {
        // This JVM's PID with another start time: the up that wrote it is gone and its PID names another process.
        UpState stale = new UpState(ProcessHandle.current().pid(), 1, results.resolve("up-0").toString(), List.of(), Map.of(), Map.of());
        Files.createDirectories(results.resolve("up-0"));
        stale.write(results);

        assertThat(UpState.running(results)).isEmpty();
        assertThat(UpState.pointer(results)).doesNotExist();
    }

    @Test
    void aLivePidThatStartedAtAnotherTimeIsNotTheUp() {
        long me = ProcessHandle.current().pid();
        long started = UpState.startedMillis(me).orElseThrow();
        assertThat(UpState.isSameProcess(me, started)).isTrue();
        // The PID reused by another process: same number, another start time.
        assertThat(UpState.isSameProcess(me, started - 60_000)).isFalse();
        // This JVM runs tests, not up: its command has no "up" argument.
        assertThat(new UpState(me, started, results.toString(), List.of(), Map.of(), Map.of()).alive()).isFalse();
    }
}
