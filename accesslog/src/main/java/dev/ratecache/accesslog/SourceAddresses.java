package dev.ratecache.accesslog;

/**
 * The loopback addresses the replay sends from, one per original client, so that nginx's
 * {@code limit_req} keyed on {@code $binary_remote_addr} sees as many clients as the log had. The
 * range starts at 127.16.0.1 to stay clear of the 127.0.x addresses other software binds; addresses
 * ending in .0 or .255 are left out because some stacks treat them as network or broadcast
 * addresses even on loopback.
 */
public final class SourceAddresses {
    /** Usable last octets per /24: 1 to 254. */
    private static final int PER_BLOCK = 254;
    private static final int FIRST_SECOND_OCTET = 16;

    /** How many clients can have an address of their own: 127.16.0.1 to 127.255.255.254. */
    public static final long CAPACITY = (256L - FIRST_SECOND_OCTET) * 256 * PER_BLOCK;

    private SourceAddresses() {}

    /**
     * The address of the client first seen at {@code index} (0 for the first). Computed, not looked
     * up, so the same log and selection give the same addresses on every run and every machine.
     */
    public static String of(long index) {
        if (index < 0 || index >= CAPACITY) {
            throw new IllegalArgumentException("client " + index + " is beyond the " + CAPACITY
                    + " source addresses from 127.16.0.1 to 127.255.255.254");
        }
        long block = index / PER_BLOCK;
        long host = index % PER_BLOCK + 1;
        return "127." + (FIRST_SECOND_OCTET + block / 256) + "." + (block % 256) + "." + host;
    }
}
