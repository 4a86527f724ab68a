package dev.ratecache.suite.switches;

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

    @Override
    public String toString() {
        return flag;
    }
}
