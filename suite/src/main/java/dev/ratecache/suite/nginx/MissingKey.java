package dev.ratecache.suite.nginx;

/**
 * What happens to a request without a valid key ({@code --missing-key}): {@code addr} counts it
 * against its address, as if the limit were keyed by address; {@code reject} refuses it with 401.
 */
public enum MissingKey {
    ADDR("addr"),
    REJECT("reject");

    private final String flag;

    MissingKey(String flag) {
        this.flag = flag;
    }

    public static MissingKey parse(String text) {
        for (MissingKey m : values()) {
            if (m.flag.equalsIgnoreCase(text.trim())) {
                return m;
            }
        }
        throw new IllegalArgumentException("'" + text + "' is not a missing-key action: use addr or reject");
    }

    @Override
    public String toString() {
        return flag;
    }
}
