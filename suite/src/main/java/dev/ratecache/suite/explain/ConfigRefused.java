package dev.ratecache.suite.explain;

/** A config that cannot be read or that nginx refuses: one line saying why, which the command prints and exits 2 on. */
public final class ConfigRefused extends Exception {
    private static final long serialVersionUID = 1L;

    public ConfigRefused(String line) {
        super(line);
    }
}
