package dev.ratecache.suite.stack;

import dev.ratecache.proc.Ports;
import dev.ratecache.suite.origin.OriginServer;
import dev.ratecache.testkit.TestDirs;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * The suite's origin, started once per test JVM for every stack class that uses its settings
 * ({@link #ENDPOINTS}), and reset through its management endpoint (counters, item versions,
 * faults) before each class and each test, so that none sees what another did. A class that
 * needs other origin settings starts an origin of its own. A class gets it as a parameter:
 *
 * <pre>{@code
 * @StackTest
 * @ExtendWith(SharedOrigin.class)
 * class EdgeCacheTest {
 *     @BeforeAll
 *     static void start(OriginServer origin) throws Exception {
 *         stack = Stacks.around(origin, EdgeCacheTest.class, new StackSwitches());
 *     }
 * }
 * }</pre>
 *
 * Booting the origin's JVM costs seconds of CPU; one per JVM instead of one per class took about
 * 30 boots out of a run of the stack lane.
 */
public final class SharedOrigin implements BeforeAllCallback, BeforeEachCallback, ParameterResolver {
    /**
     * This JVM's origin. Not in JUnit's root store: Failsafe hands a fork its classes one at a time,
     * each in an execution of its own whose store closes when the class ends. The origin is a
     * ManagedProcess, which stops it when the JVM exits.
     */
    private static OriginServer running;

    /**
     * Endpoints beyond the origin's three, each named for the one kind of response it shows. They
     * only add endpoints, so the three and the origin's defaults (stale-while-revalidate=60,
     * stale-if-error=600 on every endpoint without a Cache-Control of its own) stay as a user's
     * run has them.
     */
    public static final List<String> ENDPOINTS = List.of(
            // The edge cache's stale behaviours rely on quick and slow carrying the default permission to serve stale.
            "--origin.endpoints.quick.delay=10ms", "--origin.endpoints.quick.max-age=1s",
            "--origin.endpoints.slow.delay=1500ms", "--origin.endpoints.slow.max-age=60s",
            // What no shared cache stores.
            "--origin.endpoints.private.max-age=60s", "--origin.endpoints.private.cache-control=private, max-age=60",
            "--origin.endpoints.nostore.max-age=60s", "--origin.endpoints.nostore.cache-control=no-store",
            "--origin.endpoints.cookie.max-age=60s", "--origin.endpoints.cookie.set-cookie=session=abc123",
            "--origin.endpoints.bare.max-age=60s", "--origin.endpoints.bare.cache-control=none",
            // Headers the edge passes or adds (EdgeHeadersTest).
            "--origin.endpoints.lasting.max-age=60s",
            "--origin.endpoints.zipped.max-age=60s", "--origin.endpoints.zipped.gzip=true",
            "--origin.endpoints.framed.max-age=60s", "--origin.endpoints.framed.x-frame-options=SAMEORIGIN",
            "--origin.endpoints.framed.content-security-policy=frame-ancestors 'self'",
            "--origin.endpoints.aged.max-age=60s", "--origin.endpoints.aged.age=7",
            // Both validators, for requests that send both conditions (EdgeHeadersTest).
            "--origin.endpoints.validated.max-age=60s",
            "--origin.endpoints.validated.last-modified=Mon, 02 Jan 2023 00:00:00 GMT",
            // Stale only with the response's permission (EdgeStaleRulesTest, ProtectiveStaleTest, the client's tests).
            "--origin.endpoints.plain.cache-control=public, max-age=1",
            "--origin.endpoints.swr.cache-control=public, max-age=1, stale-while-revalidate=60",
            "--origin.endpoints.swrbrief.cache-control=public, max-age=1, stale-while-revalidate=1",
            "--origin.endpoints.sie.cache-control=public, max-age=1, stale-if-error=60",
            "--origin.endpoints.mustrevalidate.cache-control=public, max-age=1, must-revalidate",
            "--origin.endpoints.proxyrevalidate.cache-control=public, max-age=1, proxy-revalidate",
            "--origin.endpoints.smaxage.cache-control=public, s-maxage=1",
            "--origin.endpoints.mrsie.cache-control=public, max-age=1, must-revalidate, stale-if-error=60",
            "--origin.endpoints.prsie.cache-control=public, max-age=1, proxy-revalidate, stale-if-error=60",
            "--origin.endpoints.smsie.cache-control=public, s-maxage=1, stale-if-error=60",
            // Freshness as RFC 9111 computes it (FreshnessRulesTest): 60 s as nginx alone reads them, about 2 s
            // by the RFCs; no stale permission, so an expired entry is never answered STALE.
            "--origin.endpoints.aged58.cache-control=public, max-age=60", "--origin.endpoints.aged58.age=58",
            "--origin.endpoints.lagging.cache-control=public, max-age=60", "--origin.endpoints.lagging.date-offset=-58s",
            "--origin.endpoints.ahead.cache-control=none", "--origin.endpoints.ahead.date-offset=3600s",
            "--origin.endpoints.ahead.expires-after-date=2s",
            "--origin.endpoints.badexpires.cache-control=none", "--origin.endpoints.badexpires.expires=not a date",
            "--origin.endpoints.varyall.cache-control=public, max-age=60", "--origin.endpoints.varyall.vary=*",
            "--origin.endpoints.varylist.cache-control=public, max-age=60", "--origin.endpoints.varylist.vary=Accept, *",
            "--origin.endpoints.targeted.cache-control=public, max-age=60",
            "--origin.endpoints.targeted.cdn-cache-control=max-age=2",
            "--origin.endpoints.cdnnostore.cache-control=public, max-age=60",
            "--origin.endpoints.cdnnostore.cdn-cache-control=no-store",
            "--origin.endpoints.cdnprivate.cache-control=public, max-age=60",
            "--origin.endpoints.cdnprivate.cdn-cache-control=private",
            // And CDN-Cache-Control allowing a minute what Cache-Control refuses (FreshnessRulesTest).
            "--origin.endpoints.cdnovernostore.cache-control=no-store",
            "--origin.endpoints.cdnovernostore.cdn-cache-control=max-age=60",
            "--origin.endpoints.cdnoverprivate.cache-control=private",
            "--origin.endpoints.cdnoverprivate.cdn-cache-control=max-age=60",
            "--origin.endpoints.cdnovermaxage0.cache-control=public, max-age=0",
            "--origin.endpoints.cdnovermaxage0.cdn-cache-control=max-age=60",
            // Beside no-store, CDN-Cache-Controls the edge must ignore (RFC 9213 section 2.1): not a
            // Structured Field Dictionary (RFC 9651), or a lifetime that is not an Integer (FreshnessRulesTest).
            "--origin.endpoints.cdnnotadict.cache-control=no-store",
            "--origin.endpoints.cdnnotadict.cdn-cache-control=max-age=10000, &&&&&",
            "--origin.endpoints.cdnquotedmaxage.cache-control=no-store",
            "--origin.endpoints.cdnquotedmaxage.cdn-cache-control=max-age=\"10000\"",
            "--origin.endpoints.cdnuppercase.cache-control=no-store",
            "--origin.endpoints.cdnuppercase.cdn-cache-control=Max-Age=10000",
            "--origin.endpoints.cdntrailingcomma.cache-control=no-store",
            "--origin.endpoints.cdntrailingcomma.cdn-cache-control=max-age=10000,",
            "--origin.endpoints.cdnbadescape.cache-control=no-store",
            "--origin.endpoints.cdnbadescape.cdn-cache-control=max-age=10000, note=\"\\q\"",
            "--origin.endpoints.cdndecimalsmaxage.cache-control=no-store",
            "--origin.endpoints.cdndecimalsmaxage.cdn-cache-control=max-age=10000, s-maxage=10000.0",
            // And the other way round: an invalid one forbidding storage beside a Cache-Control allowing it.
            "--origin.endpoints.cdnnostorevalue.cache-control=public, max-age=60",
            "--origin.endpoints.cdnnostorevalue.cdn-cache-control=no-store=1",
            // And one the edge must read: valid Structured Field syntax beyond what the edge uses.
            "--origin.endpoints.cdnrich.cache-control=no-store",
            "--origin.endpoints.cdnrich.cdn-cache-control=max-age=60;by=origin, note=(\"a\" 1);x, hint=:aGk=:",
            // A hop-by-hop header named in Connection (EdgeHeadersTest).
            "--origin.endpoints.hopping.max-age=60s", "--origin.endpoints.hopping.hop-by-hop-header=X-Hop",
            // Writes that invalidate (InvalidationTest).
            "--origin.endpoints.board.max-age=60s", "--origin.endpoints.board.writes=true",
            "--origin.endpoints.post.max-age=60s", "--origin.endpoints.post.writes=true",
            "--origin.endpoints.post.write-location=/board?item=posted",
            // The client library's: fresh 1, 2 and 6 s with no permission to serve stale.
            "--origin.endpoints.brief.delay=10ms", "--origin.endpoints.brief.cache-control=public, max-age=1",
            "--origin.endpoints.brief2.delay=10ms", "--origin.endpoints.brief2.cache-control=public, max-age=2",
            "--origin.endpoints.six.cache-control=public, max-age=6",
            "--origin.endpoints.staleok.cache-control=public, max-age=1, stale-if-error=60");

    /** The origin's request threads, as a user's run has them by default. */
    private static final int THREADS = 10;

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        origin(true).reset();
    }

    /** A test class may stop the origin for several of its tests (the origin down): those find it so. */
    @Override
    public void beforeEach(ExtensionContext context) throws Exception {
        OriginServer origin = origin(false);
        if (origin.isRunning()) {
            origin.reset();
        }
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == OriginServer.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        return origin(true);
    }

    /**
     * This JVM's origin: started on first use, stopped when the JVM exits; with {@code revive},
     * started again if a class left it stopped or it died.
     */
    private static synchronized OriginServer origin(boolean revive) {
        try {
            if (running == null) {
                // A folder per JVM: the stack lane runs two side by side.
                running = OriginServer.start(Ports.free(), Ports.free(), THREADS,
                        TestDirs.fresh(SharedOrigin.class, "jvm-" + ProcessHandle.current().pid()).resolve("origin.log"),
                        ENDPOINTS);
            } else if (revive && (!running.isRunning() || !running.healthy())) {
                running.close();
                running.start();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return running;
    }
}
