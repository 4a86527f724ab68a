package dev.ratecache.suite.distributed;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratecache.testkit.StackTest;
import dev.ratecache.testkit.TestDirs;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The RMI keystore the controller and the load servers share, made once however many ask at once. */
@StackTest
class KeystoreTest {

    @Test
    void fourAskingAtOnceAllGetTheSameCompleteKeystoreAndNothingIsLeftBeside() throws Exception {
        Path file = TestDirs.fresh(KeystoreTest.class, "race").resolve("rmi/rmi_keystore.jks");
        ExecutorService pool = Executors.newFixedThreadPool(4);
        List<Future<Path>> asked = new ArrayList<>();
        try {
            for (int i = 0; i < 4; i++) {
                asked.add(pool.submit((Callable<Path>) () -> LoadHosts.ensureKeystore(file)));
            }
            for (Future<Path> f : asked) {
                assertThat(f.get()).isEqualTo(file);
            }
        } finally {
            pool.shutdownNow();
        }

        KeyStore store = KeyStore.getInstance("JKS");
        try (InputStream in = Files.newInputStream(file)) {
            store.load(in, LoadHosts.KEYSTORE_PASSWORD.toCharArray());
        }
        assertThat(store.isKeyEntry("rmi")).isTrue();
        try (Stream<Path> beside = Files.list(file.getParent())) {
            assertThat(beside).containsExactly(file);
        }
        assertThat(LoadHosts.ensureKeystore(file)).isEqualTo(file);
    }
}
