package dev.ratecache.model;

/**
 * How many keys a {@code limit_req_zone} of a given size holds, by nginx's own arithmetic on a
 * 64-bit Linux build with 4 KB pages: {@code ngx_slab_init} (src/core/ngx_slab.c) takes the pool's
 * header, its nine slot lists and their statistics off the zone, gives each page a 24-byte
 * descriptor and starts the pages at a page boundary; {@code ngx_http_limit_req_init_zone} then
 * allocates the zone's red-black tree and LRU queue (80 bytes, a 128-byte slot) and its log context
 * (a small slot, a page of its own); each key's state is
 * {@code offsetof(ngx_rbtree_node_t, color) + offsetof(ngx_http_limit_req_node_t, data) + len}
 * = 80 + the key's bytes, in a slot of the next power of two. So a 4-byte
 * {@code $binary_remote_addr} takes 128 bytes, and 1m holds 8,095 addresses: nginx's docs say
 * "about 8 thousand 128-byte states" for 64-bit platforms, "16 thousand 64-byte states" for 32-bit.
 */
public final class ZoneStates {
    private ZoneStates() {}

    static final int PAGE = 4096;
    /** sizeof(ngx_slab_pool_t) on x86_64. */
    static final int POOL = 200;
    /** ngx_pagesize_shift - min_shift slot lists, each an ngx_slab_page_t (24) and an ngx_slab_stat_t (32). */
    static final int SLOTS = 9 * (24 + 32);
    /** sizeof(ngx_slab_page_t): one per page. */
    static final int PAGE_DESCRIPTOR = 24;
    /** A state's bytes before its key: the rbtree node up to color (32) and the limit_req node up to data (48). */
    public static final int STATE_HEADER = 32 + 48;
    /** sizeof(ngx_http_limit_req_shctx_t): rbtree (24), its sentinel (40) and the LRU queue (16). */
    static final int SHARED_CONTEXT = 80;
    /** nginx refuses a zone under 8 pages ("zone ... is too small"). */
    public static final long SMALLEST = 8L * PAGE;

    /**
     * The keys of {@code keyBytes} bytes each that a zone of {@code zoneBytes} holds before nginx
     * must remove the least recently used one to store another.
     *
     * @param zoneName the zone's name, whose log context takes a slot of its own
     */
    public static long states(long zoneBytes, int keyBytes, String zoneName) {
        if (zoneBytes < SMALLEST) {
            throw new IllegalArgumentException("a zone under 32k (8 pages) is too small for nginx (got " + zoneBytes + ")");
        }
        long pages = pages(zoneBytes);
        int stateSlot = slot(STATE_HEADER + keyBytes);
        int contextSlot = slot(SHARED_CONTEXT);
        // " in limit_req zone \"NAME\"" and its NUL: sizeof(" in limit_req zone \"\"") is 22.
        int logSlot = slot(22 + zoneName.length());
        if (stateSlot > PAGE / 2) {
            // Past ngx_slab_max_size a state takes whole pages.
            long statePages = (STATE_HEADER + keyBytes + PAGE - 1) / PAGE;
            long others = (contextSlot == logSlot ? 1 : 2);
            return Math.max(0, (pages - others) / statePages);
        }
        long perPage = PAGE / stateSlot;
        long otherPages = (logSlot != stateSlot ? 1 : 0) + (contextSlot != stateSlot && contextSlot != logSlot ? 1 : 0);
        long slots = (pages - otherPages) * perPage;
        if (contextSlot == stateSlot) {
            slots--;
        }
        if (logSlot == stateSlot) {
            slots--;
        }
        return Math.max(0, slots);
    }

    /** The pages ngx_slab_init gives a zone of {@code zoneBytes}. */
    static long pages(long zoneBytes) {
        long size = zoneBytes - POOL - SLOTS;
        long pages = size / (PAGE + PAGE_DESCRIPTOR);
        long firstPage = (POOL + SLOTS + pages * PAGE_DESCRIPTOR + PAGE - 1) / PAGE * PAGE;
        return Math.min(pages, (zoneBytes - firstPage) / PAGE);
    }

    /** The slab slot a request of {@code bytes} gets: the next power of two, 8 at least. */
    static int slot(int bytes) {
        int slot = 8;
        while (slot < bytes) {
            slot <<= 1;
        }
        return slot;
    }
}
