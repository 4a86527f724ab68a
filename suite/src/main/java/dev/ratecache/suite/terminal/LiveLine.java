package dev.ratecache.suite.terminal;

/**
 * One line that rewrites itself in place (a carriage return, then blanks over what was longer), on
 * a terminal only: elsewhere it writes nothing, for a log would keep every version of it.
 */
public final class LiveLine {
    private final Terminal terminal;
    private int shown;

    public LiveLine(Terminal terminal) {
        this.terminal = terminal;
    }

    public synchronized void show(String text) {
        if (!terminal.live()) {
            return;
        }
        terminal.out().print("\r" + text + " ".repeat(Math.max(0, shown - text.length())));
        terminal.out().flush();
        shown = text.length();
    }

    /** Blanks the line and leaves the cursor at its start, for the next line to take its place. */
    public synchronized void clear() {
        if (shown > 0) {
            terminal.out().print("\r" + " ".repeat(shown) + "\r");
            terminal.out().flush();
            shown = 0;
        }
    }
}
