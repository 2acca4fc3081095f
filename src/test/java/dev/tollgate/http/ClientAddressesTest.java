package dev.tollgate.http;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class ClientAddressesTest {

    private final ClientAddresses addresses =
            new ClientAddresses(List.of(Cidr.parse("10.0.0.0/8"), Cidr.parse("fd00::/8")), 64);

    @Test
    void untrustedPeerIsTheClientWhateverItForwards() {
        assertEquals("203.0.113.7", addresses.clientKey("203.0.113.7", "for=1.2.3.4", "1.2.3.4"));
    }

    @Test
    void trustedProxyForwardsForTheNearestUntrustedHop() {
        assertEquals("198.51.100.1", addresses.clientKey("10.0.0.1", null, "6.6.6.6, 198.51.100.1, 10.0.0.2"));
    }

    @Test
    void forwardedHeaderWinsAndItsFormsAreUnderstood() {
        assertEquals("198.51.100.2", addresses.clientKey("10.0.0.1", "for=198.51.100.2;proto=https", "1.1.1.1"));
        assertEquals("198.51.100.3", addresses.clientKey("10.0.0.1", "for=\"198.51.100.3:4711\"", null));
        assertEquals("2001:db8:1:2:0:0:0:0/64", addresses.clientKey("10.0.0.1", "for=\"[2001:db8:1:2::5]:80\"", null));
    }

    @Test
    void ipv6ClientsAreKeyedByTheirPrefix() {
        assertEquals(
                addresses.clientKey("2001:db8:1:2::1", null, null),
                addresses.clientKey("2001:db8:1:2:ffff::9", null, null));
        assertEquals("2001:db8:1:3:0:0:0:0/64", addresses.clientKey("2001:db8:1:3::1", null, null));
    }

    @Test
    void garbageInHeadersNeverBecomesTheKey() {
        assertEquals("10.0.0.1", addresses.clientKey("10.0.0.1", null, "evil.example.com"));
        assertEquals("10.0.0.1", addresses.clientKey("10.0.0.1", null, "unknown"));
        assertEquals("1.2.3.4", addresses.clientKey("::ffff:1.2.3.4", null, null));
    }
}
