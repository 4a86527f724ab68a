package dev.ratecache.suite.nginx;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** An address in a network as nginx's geo matches it, with no name lookup. */
class CidrTest {
    @Test
    void anAddressIsInTheNetworksItsLeadingBitsMatch() {
        assertThat(Cidr.contains("127.0.0.0/8", "127.16.0.5")).isTrue();
        assertThat(Cidr.contains("127.16.0.0/30", "127.16.0.3")).isTrue();
        assertThat(Cidr.contains("127.16.0.0/30", "127.16.0.4")).isFalse();
        assertThat(Cidr.contains("10.0.0.0/8", "127.0.0.1")).isFalse();
        assertThat(Cidr.contains("0.0.0.0/0", "192.0.2.1")).isTrue();
    }

    @Test
    void aBareAddressIsItsOwnNetwork() {
        assertThat(Cidr.contains("127.0.0.1", "127.0.0.1")).isTrue();
        assertThat(Cidr.contains("127.0.0.1", "127.0.0.2")).isFalse();
    }

    @Test
    void anIpv4AddressIsNeverInAnIpv6Network() {
        assertThat(Cidr.contains("::/0", "127.0.0.1")).isFalse();
        assertThat(Cidr.contains("2001:db8::/32", "2001:db8::1")).isTrue();
    }
}
