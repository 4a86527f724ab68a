package dev.ratecache.suite.matrix;

import java.util.concurrent.CompletableFuture;

/** A matrix run on another thread, for a test that breaks a part while the cell runs. */
final class InBackground {
    private InBackground() {}

    static CompletableFuture<MatrixRunner.Outcome> run(MatrixRunner runner) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return runner.run();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
    }
}
