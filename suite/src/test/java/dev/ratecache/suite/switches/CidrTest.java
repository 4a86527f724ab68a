package dev.ratecache.suite.switches;

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

    @Test
    void aNetworkWithBitsSetPastItsPrefixNamesTheNetworkNginxWouldUse() {
        assertThat(Cidr.network("10.1.2.3/8")).hasValue("10.0.0.0/8");
        assertThat(Cidr.network("192.168.1.77/30")).hasValue("192.168.1.76/30");
        assertThat(Cidr.network("1.2.3.4/0")).hasValue("0.0.0.0/0");
        assertThat(Cidr.network("2001:db8::1/32")).hasValue("2001:db8::/32");
        assertThat(Cidr.network("1:0:0:2::5/64")).hasValue("1:0:0:2::/64");
        assertThat(Cidr.host("10.1.2.3/8")).isEqualTo("10.1.2.3/32");
        assertThat(Cidr.host("2001:db8::1/32")).isEqualTo("2001:db8::1/128");
    }

    @Test
    void aNetworkWrittenAsItsOwnNetworkOrABareAddressHasNoOther() {
        assertThat(Cidr.network("10.0.0.0/8")).isEmpty();
        assertThat(Cidr.network("10.1.2.3/32")).isEmpty();
        assertThat(Cidr.network("10.1.2.3")).isEmpty();
        assertThat(Cidr.network("2001:db8::/32")).isEmpty();
    }
}
