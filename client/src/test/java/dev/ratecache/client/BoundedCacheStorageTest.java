package dev.ratecache.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hc.client5.http.cache.HttpCacheEntry;
import org.apache.hc.client5.http.impl.cache.HeapResource;
import org.apache.hc.core5.http.message.HeaderGroup;
import org.junit.jupiter.api.Test;

class BoundedCacheStorageTest {
    private final AtomicInteger disposed = new AtomicInteger();

    private HttpCacheEntry entry(int bodyBytes) {
        HeapResource body = new HeapResource(new byte[bodyBytes]) {
            @Override
            public void dispose() {
                disposed.incrementAndGet();
            }
        };
        Instant now = Instant.now();
        return new HttpCacheEntry(now, now, "GET", "/x", new HeaderGroup(), 200, new HeaderGroup(), body, null);
    }

    @Test
    void leastRecentlyUsedEntriesGoOnceTheBodiesPassTheByteBound() {
        BoundedCacheStorage storage = new BoundedCacheStorage(3 * 1024 + 3 * 600, 100);
        storage.putEntry("a", entry(1024));
        storage.putEntry("b", entry(1024));
        storage.putEntry("c", entry(1024));
        storage.getEntry("a");

        storage.putEntry("d", entry(1024));

        assertThat(storage.getEntry("b")).isNull();
        assertThat(storage.getEntry("a")).isNotNull();
        assertThat(storage.getEntry("d")).isNotNull();
        assertThat(disposed).hasValue(1);
        assertThat(storage.bytes()).isLessThanOrEqualTo(3 * 1024 + 3 * 600);
    }

    @Test
    void bodySharedByTwoEntriesIsDisposedOfWithTheLastOne() {
        BoundedCacheStorage storage = new BoundedCacheStorage(1 << 20, 100);
        HttpCacheEntry e = entry(100);
        storage.putEntry("a", e);
        storage.putEntry("b", e);

        storage.removeEntry("a");
        assertThat(disposed).hasValue(0);
        storage.removeEntry("b");
        assertThat(disposed).hasValue(1);
        assertThat(storage.bytes()).isZero();
    }

    @Test
    void eachPrincipalHasKeysOfItsOwn() {
        BoundedCacheStorage storage = new BoundedCacheStorage(1 << 20, 100);
        String outer = BoundedCacheStorage.scope("alice");
        try {
            storage.putEntry("k", entry(10));
            assertThat(storage.getEntry("k")).isNotNull();
            BoundedCacheStorage.scope("bob");
            assertThat(storage.getEntry("k")).isNull();
            BoundedCacheStorage.scope(null);
            assertThat(storage.getEntry("k")).isNull();
        } finally {
            BoundedCacheStorage.scope(outer);
        }
    }
}
