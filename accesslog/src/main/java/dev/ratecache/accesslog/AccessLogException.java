package dev.ratecache.accesslog;

/**
 * A log that cannot be replayed as asked. Checked, so that the command line has to decide what to
 * show; the message is always one line, meant to be printed as it is in front of the user.
 */
public final class AccessLogException extends Exception {
    private static final long serialVersionUID = 1L;

    public AccessLogException(String message) {
        super(oneLine(message));
    }

    public AccessLogException(String message, Throwable cause) {
        super(oneLine(message), cause);
    }

    /** A message that spans lines would be cut or misread on a terminal next to other output. */
    static String oneLine(String text) {
        return text == null ? "" : text.replaceAll("[\\r\\n]+", " ");
    }
}
