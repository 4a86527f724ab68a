package dev.ratecache.suite.nginx;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** An IPv4 or IPv6 address or network in CIDR form, checked without any name lookup. */
final class Cidr {
    private static final Pattern V4 = Pattern.compile("(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})(?:/(\\d{1,2}))?");
    private static final Pattern V6 = Pattern.compile("([0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*)(?:/(\\d{1,3}))?");

    private Cidr() {}

    static boolean valid(String text) {
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
