package dev.ratecache.suite.spec;

/** How the back end spreads requests over several origins. */
public enum Balance {
    ROUND_ROBIN("round-robin"),
    LEAST_CONN("least-conn");

    private final String flag;

    Balance(String flag) {
        this.flag = flag;
    }

    @Override
    public String toString() {
        return flag;
    }
}
