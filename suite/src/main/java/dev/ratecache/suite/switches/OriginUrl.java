package dev.ratecache.suite.switches;

import dev.ratecache.accesslog.Printable;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An origin of {@code --origin}: http://host:port, nothing more. The tiers proxy to its host and
 * port alone, so a user and password in it would be dropped without a word, and the URL is quoted
 * in the rendered configs' "Render it again" line, in up's URLs and in reports: credentials are
 * refused, and wherever a URL is quoted in a refusal its user information is masked.
 */
public final class OriginUrl {
    private static final String FORM = "give http://host:port, e.g. http://127.0.0.1:9000";
    /**
     * A URL's user information: everything from "//" to the last "@" of the word, as a secret may
     * hold a "/" or an "@" itself (unencoded, as typed). Stops at quotes, so that within picocli's
     * quoted arguments it masks one argument only.
     */
    private static final Pattern USER_INFO = Pattern.compile("([A-Za-z][A-Za-z0-9+.-]*://)([^\\s'\"]*)@");

    private OriginUrl() {}

    /** {@code text} as an origin; throws IllegalArgumentException, saying what is wrong and the form, for a bad one. */
    public static URI parse(String text) {
        URI uri;
        try {
            uri = new URI(text.strip());
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("'" + Printable.escape(masked(text)) + "' is not a URL: " + FORM);
        }
        problem(uri).ifPresent(p -> {
            throw new IllegalArgumentException(p);
        });
        return uri;
    }

    /** What is wrong with {@code uri} as an origin, in one line that quotes it masked; empty when it is one. */
    public static Optional<String> problem(URI uri) {
        // A URI keeps characters outside ASCII as they are, a right-to-left override among them.
        String quoted = "'" + Printable.escape(masked(uri.toString())) + "'";
        if (uri.getRawUserInfo() != null) {
            return Optional.of(quoted + " holds a user or password, which the tiers would not send to the origin: "
                    + FORM);
        }
        if (!"http".equals(uri.getScheme()) || uri.getHost() == null || uri.getPort() == -1) {
            return Optional.of(quoted + " is not an http URL with a host and a port: " + FORM);
        }
        if (uri.getPort() < 1 || uri.getPort() > 65_535) {
            return Optional.of(quoted + " has port " + uri.getPort() + ", not a TCP port (1-65535): " + FORM);
        }
        String path = uri.getRawPath();
        if ((path != null && !path.isEmpty() && !path.equals("/")) || uri.getRawQuery() != null
                || uri.getRawFragment() != null) {
            return Optional.of(quoted + " has a path, query or fragment, which the tiers would not send: " + FORM);
        }
        return Optional.empty();
    }

    /**
     * {@code text} with the user information of every URL in it masked: http://user:***@host for a
     * user and password, http://***@host for a user (or token) alone.
     */
    public static String masked(String text) {
        Matcher m = USER_INFO.matcher(text);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String userInfo = m.group(2);
            int colon = userInfo.indexOf(':');
            m.appendReplacement(out, Matcher.quoteReplacement(m.group(1)
                    + (colon < 0 ? "***" : userInfo.substring(0, colon) + ":***") + "@"));
        }
        return m.appendTail(out).toString();
    }
}
