package dev.ratecache.suite.stack;

import dev.ratecache.suite.TestDirs;
import dev.ratecache.suite.nginx.NginxSwitches;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/** Test stacks: free ports, a fresh folder, and extra origin endpoints the behaviours need. */
public final class Stacks {
    private Stacks() {}

    /**
     * Endpoints beyond the reference three, each showing one kind of response:
     * quick (fresh 1 s), slow (1.5 s to answer), private, nostore, cookie (Set-Cookie),
     * bare (no Cache-Control at all).
     */
    public static final List<String> TEST_ENDPOINTS = List.of(
            "--origin.endpoints.quick.delay=10ms", "--origin.endpoints.quick.max-age=1s",
            "--origin.endpoints.slow.delay=1500ms", "--origin.endpoints.slow.max-age=60s",
            "--origin.endpoints.private.delay=0ms", "--origin.endpoints.private.max-age=60s",
            "--origin.endpoints.private.cache-control=private, max-age=60",
            "--origin.endpoints.nostore.delay=0ms", "--origin.endpoints.nostore.max-age=60s",
            "--origin.endpoints.nostore.cache-control=no-store",
            "--origin.endpoints.cookie.delay=0ms", "--origin.endpoints.cookie.max-age=60s",
            "--origin.endpoints.cookie.set-cookie=session=abc123",
            "--origin.endpoints.bare.delay=0ms", "--origin.endpoints.bare.max-age=60s",
            "--origin.endpoints.bare.cache-control=none");

    public static Stack start(Class<?> owner, NginxSwitches switches, String... originArgs) throws IOException {
        List<String> args = new ArrayList<>(TEST_ENDPOINTS);
        args.addAll(List.of(originArgs));
        return Stack.start(switches, StackPorts.free(), TestDirs.fresh(owner, "stack"), 10, args);
    }
}
