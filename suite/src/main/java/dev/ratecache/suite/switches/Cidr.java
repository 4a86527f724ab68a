package dev.ratecache.suite.switches;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** An IPv4 or IPv6 address or network in CIDR form, checked without any name lookup. */
public final class Cidr {
    private static final Pattern V4 = Pattern.compile("(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})(?:/(\\d{1,2}))?");
    private static final Pattern V6 = Pattern.compile("([0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*)(?:/(\\d{1,3}))?");

    private Cidr() {}

    /**
     * Whether {@code address} (a literal, never looked up) is in {@code cidr} (a valid one, see
     * {@link #valid}), as nginx's geo matches it: an IPv4 address is never in an IPv6 network.
     */
    public static boolean contains(String cidr, String address) {
        try {
            String[] parts = cidr.split("/", 2);
            byte[] network = InetAddress.getByName(parts[0]).getAddress();
            byte[] candidate = InetAddress.getByName(address).getAddress();
            if (network.length != candidate.length) {
                return false;
            }
            int bits = parts.length == 2 ? Integer.parseInt(parts[1]) : network.length * 8;
            for (int i = 0; i < bits; i++) {
                int mask = 0x80 >> (i % 8);
                if ((network[i / 8] & mask) != (candidate[i / 8] & mask)) {
                    return false;
                }
            }
            return true;
        } catch (UnknownHostException | NumberFormatException e) {
            return false;
        }
    }

    /**
     * The network of {@code cidr} (a valid one) when its address has bits set past its prefix, which
     * nginx ignores with a warning: 10.0.0.0/8 for 10.1.2.3/8. Empty when none are, or without a prefix.
     */
    static Optional<String> network(String cidr) {
        String[] parts = cidr.split("/", 2);
        if (parts.length < 2) {
            return Optional.empty();
        }
        try {
            byte[] address = InetAddress.getByName(parts[0]).getAddress();
            byte[] network = address.clone();
            int bits = Integer.parseInt(parts[1]);
            for (int i = bits; i < network.length * 8; i++) {
                network[i / 8] &= (byte) ~(0x80 >> (i % 8));
            }
            return java.util.Arrays.equals(address, network) ? Optional.empty()
                    : Optional.of(literal(InetAddress.getByAddress(network)) + "/" + bits);
        } catch (UnknownHostException e) {
            return Optional.empty();
        }
    }

    /** {@code cidr}'s address as a network of itself alone: 10.1.2.3/32, 2001:db8::1/128. */
    static String host(String cidr) {
        String address = cidr.split("/", 2)[0];
        return address + (address.contains(":") ? "/128" : "/32");
    }

    /** An address as written: IPv6 with its longest run of zero groups as :: (RFC 5952), which Java's own form keeps. */
    private static String literal(InetAddress address) {
        String full = address.getHostAddress();
        if (!(address instanceof Inet6Address)) {
            return full;
        }
        Matcher zeros = Pattern.compile("(?:^|:)0(?::0)+(?::|$)").matcher(full);
        int start = -1;
        int end = -1;
        while (zeros.find()) {
            if (zeros.end() - zeros.start() > end - start) {
                start = zeros.start();
                end = zeros.end();
            }
        }
        return start < 0 ? full : full.substring(0, start) + "::" + full.substring(end);
    }

    public static boolean valid(String text) {
        Matcher v4 = V4.matcher(text);
        if (v4.matches()) {
            for (int i = 1; i <= 4; i++) {
                if (Integer.parseInt(v4.group(i)) > 255) {
                    return false;
                }
            }
            return v4.group(5) == null || Integer.parseInt(v4.group(5)) <= 32;
        }
        Matcher v6 = V6.matcher(text);
        if (v6.matches()) {
            try {
                // A literal with a colon is parsed, never looked up.
                return InetAddress.getByName(v6.group(1)) instanceof Inet6Address
                        && (v6.group(2) == null || Integer.parseInt(v6.group(2)) <= 128);
            } catch (UnknownHostException e) {
                return false;
            }
        }
        return false;
    }
}
