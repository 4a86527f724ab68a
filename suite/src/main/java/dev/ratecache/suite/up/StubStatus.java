package dev.ratecache.suite.up;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * nginx's stub_status page, parsed:
 * <pre>
 * Active connections: 2
 * server accepts handled requests
 *  10 10 25
 * Reading: 0 Writing: 1 Waiting: 1
 * </pre>
 * https://nginx.org/en/docs/http/ngx_http_stub_status_module.html#data
 *
 * @param active   open client connections, idle ones included
 * @param requests client requests since the master started (the status page's own included)
 */
public record StubStatus(long active, long accepts, long handled, long requests) {
    private static final Pattern PAGE = Pattern.compile(
            "Active connections:\\s*(\\d+)\\s+server accepts handled requests\\s+(\\d+)\\s+(\\d+)\\s+(\\d+)");

    /** The counters of a stub_status page; empty when the text is not one. */
    public static Optional<StubStatus> parse(String page) {
        Matcher m = PAGE.matcher(page == null ? "" : page);
        if (!m.find()) {
            return Optional.empty();
        }
        return Optional.of(new StubStatus(Long.parseLong(m.group(1)), Long.parseLong(m.group(2)),
                Long.parseLong(m.group(3)), Long.parseLong(m.group(4))));
    }
}
