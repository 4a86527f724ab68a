package dev.ratecache.suite.nginx;

/** How the back end spreads requests over several origins. */
public enum Balance {
    ROUND_ROBIN("round-robin"),
    LEAST_CONN("least-conn");

    private final String flag;

    Balance(String flag) {
        this.flag = flag;
    }

    public static Balance parse(String text) {
        for (Balance b : values()) {
            if (b.flag.equalsIgnoreCase(text.trim())) {
                return b;
            }
        }
        throw new IllegalArgumentException("'" + text + "' is not a balance method: use round-robin or least-conn");
    }

    @Override
    public String toString() {
        return flag;
    }
}
