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
     * quoted arguments it masks one argument only. A scheme starts a word: tried from inside one, the
     * scheme's letters would be read again from every position, in time that grows with the square
     * of a long argument's length.
     */
    private static final Pattern USER_INFO = Pattern.compile("(?<![A-Za-z0-9+.-])([A-Za-z][A-Za-z0-9+.-]*://)([^\\s'\"]*)@");

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
     * Adds why each of the user's origins cannot be run against, once the rest of the input is good
     * (the check costs a connection, and a wrong flag is said first): an origin that does not answer
     * would give a run of nothing but errors.
     */
    public static void addUnanswered(java.util.List<URI> origins, java.util.List<String> problems) {
        if (problems.isEmpty()) {
            origins.forEach(o -> unanswered(o).ifPresent(problems::add));
        }
    }

    /** How long an origin has to answer the check before a run: a healthy one answers in milliseconds. */
    private static final int ANSWER_MILLIS = 3_000;

    /**
     * Why {@code origin} cannot be run against, in one line: nothing answers an HTTP request there
     * within a few seconds. Any answer will do, an error status too: the origin is there. Empty when
     * it answers.
     */
    public static Optional<String> unanswered(URI origin) {
        String quoted = "--origin " + Printable.shown(masked(origin.toString()));
        try {
            java.net.HttpURLConnection c = (java.net.HttpURLConnection) origin.resolve("/").toURL()
                    .openConnection(java.net.Proxy.NO_PROXY);
            c.setConnectTimeout(ANSWER_MILLIS);
            c.setReadTimeout(ANSWER_MILLIS);
            c.setInstanceFollowRedirects(false);
            c.setRequestMethod("GET");
            try {
                c.getResponseCode();
            } finally {
                c.disconnect();
            }
            return Optional.empty();
        } catch (java.net.ConnectException e) {
            return Optional.of(quoted + " does not answer (" + Printable.shown(String.valueOf(e.getMessage()))
                    + "): start your origin there, or give the URL it listens on");
        } catch (java.io.IOException e) {
            return Optional.of(quoted + " gave no HTTP answer within " + ANSWER_MILLIS / 1000 + " s ("
                    + Printable.shown(String.valueOf(e.getMessage())) + "): start your origin there, or give the URL it"
                    + " listens on");
        }
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
