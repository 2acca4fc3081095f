package dev.tollgate.internal.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tollgate.testing.LogCapture;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.logging.Level;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Who the client is, for what real proxies send. Trusted: 10.0.0.0/8 and fd00::/8. Each row: the
 * peer, the configured header's lines as received (separated by {@code ¦}), the expected key.
 */
class ClientAddressesTest {

    private static final List<Cidr> TRUSTED = List.of(Cidr.parse("10.0.0.0/8"), Cidr.parse("fd00::/8"));

    private static String key(ClientHeader header, String peer, String lines) {
        List<String> received = lines == null ? List.of() : Arrays.asList(lines.split("¦", -1));
        return new ClientAddresses(TRUSTED, Optional.of(header), 64).clientKey(peer, received);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            quoteCharacter = '\'',
            value = {
                // nginx $proxy_add_x_forwarded_for, ALB (append mode), Envoy use_remote_address: append the peer
                "nginx/ALB/Envoy append, client sent none | 10.0.0.1 | 203.0.113.7 | 203.0.113.7",
                "nginx/ALB/Envoy append to a spoofed value | 10.0.0.1 | 198.51.100.1, 203.0.113.7 | 203.0.113.7",
                "a spoofed chain of trusted-looking hops | 10.0.0.1 | 10.9.9.9, 198.51.100.1, 203.0.113.7 | 203.0.113.7",
                "ALB in front of nginx: two trusted hops | 10.0.0.3 | 198.51.100.1, 203.0.113.7, 10.0.0.2 | 203.0.113.7",
                // HAProxy option forwardedfor adds its own line after the client's
                "HAProxy second line after the client's | 10.0.0.1 | 198.51.100.1¦203.0.113.7 | 203.0.113.7",
                "HAProxy after two client lines | 10.0.0.1 | 1.1.1.1¦198.51.100.9, 8.8.8.8¦203.0.113.7 | 203.0.113.7",
                "ALB xff_client_port: address with port | 10.0.0.1 | 203.0.113.7:51234 | 203.0.113.7",
                "IPv6 with port, bracketed | 10.0.0.1 | '[2001:db8:1:2::5]:51234' | 2001:db8:1:2:0:0:0:0/64",
                "IPv6 bare | 10.0.0.1 | 2001:db8:1:2:ffff::5 | 2001:db8:1:2:0:0:0:0/64",
                "IPv4-mapped peer and hop | ::ffff:10.0.0.1 | ::ffff:203.0.113.7 | 203.0.113.7",
                "IPv6 proxy | fd00::1 | 203.0.113.7, fd00::2 | 203.0.113.7",
                "every hop trusted: the leftmost is the client | 10.0.0.1 | 10.0.0.9, 10.0.0.8 | 10.0.0.9",
                "empty list elements are skipped | 10.0.0.1 | '203.0.113.7,, ' | 203.0.113.7",
                "trusted proxy sent no header: the proxy itself | 10.0.0.1 | | 10.0.0.1",
                "untrusted peer spoofing a proxy's header | 203.0.113.7 | 198.51.100.1 | 203.0.113.7",
                "untrusted peer spoofing a trusted hop | 203.0.113.7 | 10.0.0.2 | 203.0.113.7",
                "untrusted IPv6 peer keyed by its /64 | 2001:db8:1:2::1 | 10.0.0.2 | 2001:db8:1:2:0:0:0:0/64",
                // What a proxy writes when it does not name the client, and garbage: never the proxy's address
                "Squid forwarded_for off writes unknown | 10.0.0.1 | unknown | unknown",
                "a host name is not resolved | 10.0.0.1 | 1a2b.bad.cafe | unknown",
                "a host name is not resolved, whatever it says | 10.0.0.1 | evil.example.com | unknown",
                "leading zeros are ambiguous | 10.0.0.1 | 010.0.0.1 | unknown",
                "short IPv4 forms are refused | 10.0.0.1 | 10.1 | unknown",
                "a bad port makes the hop unknown | 10.0.0.1 | 203.0.113.7:99999 | unknown",
                "whatever lies left of a garbage hop is not read | 10.0.0.1 | 198.51.100.1, bogus, 10.0.0.2 | unknown",
            })
    void xForwardedFor(String why, String peer, String lines, String expected) {
        assertEquals(expected, key(ClientHeader.X_FORWARDED_FOR, peer, lines), why);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            quoteCharacter = '\'',
            value = {
                "one element | 10.0.0.1 | for=203.0.113.7;proto=https | 203.0.113.7",
                "quoted with a port | 10.0.0.1 | 'for=\"203.0.113.7:4711\"' | 203.0.113.7",
                "IPv6, quoted, bracketed, port | 10.0.0.1 | 'for=\"[2001:db8:1:2::5]:4711\"' | 2001:db8:1:2:0:0:0:0/64",
                "IPv6 quoted without brackets | 10.0.0.1 | 'for=\"2001:db8:1:2::5\"' | 2001:db8:1:2:0:0:0:0/64",
                "parameter names in any case | 10.0.0.1 | FOR=203.0.113.7 | 203.0.113.7",
                "appended to a spoofed element | 10.0.0.1 | for=198.51.100.1, for=203.0.113.7 | 203.0.113.7",
                "appended as a second line | 10.0.0.1 | for=198.51.100.1¦for=203.0.113.7 | 203.0.113.7",
                "two trusted hops | 10.0.0.1 | 'for=203.0.113.7;proto=https, for=10.0.0.2;by=\"[fd00::1]\"' | 203.0.113.7",
                "a comma inside quotes splits nothing | 10.0.0.1 | 'for=203.0.113.7;by=\"x, for=198.51.100.66\"' | 203.0.113.7",
                "a semicolon inside quotes splits nothing | 10.0.0.1 | 'host=\"a;for=198.51.100.66\";for=203.0.113.7' | 203.0.113.7",
                "an escaped quote stays inside | 10.0.0.1 | 'by=\"a\\\", for=198.51.100.66\";for=203.0.113.7' | 203.0.113.7",
                "a client's unterminated quote cannot swallow the proxy's element | 10.0.0.1 | 'for=\"198.51.100.1, for=203.0.113.7' | 203.0.113.7",
                "for=unknown | 10.0.0.1 | for=unknown | unknown",
                "for=unknown with a port | 10.0.0.1 | 'for=\"unknown:4711\"' | unknown",
                "obfuscated: keyed by the proxy's identifier | 10.0.0.1 | for=_hidden | _hidden",
                "obfuscated with an obfuscated port | 10.0.0.1 | 'for=\"_hidden:_p1\"' | _hidden",
                "an element without for | 10.0.0.1 | for=203.0.113.7, proto=https | unknown",
                "for given twice | 10.0.0.1 | for=198.51.100.1;for=203.0.113.7 | unknown",
                "IPv6 unquoted is malformed | 10.0.0.1 | for=[2001:db8::1] | unknown",
                "a quoted quote is not an address | 10.0.0.1 | 'for=\"\\\"203.0.113.7\\\"\"' | unknown",
                "untrusted peer spoofing Forwarded | 203.0.113.7 | for=198.51.100.1 | 203.0.113.7",
            })
    void forwarded(String why, String peer, String lines, String expected) {
        assertEquals(expected, key(ClientHeader.FORWARDED, peer, lines), why);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "2001:db8:1:2::1 | 2001:db8:1:2:0:0:0:0/64",
                "2001:db8:1:2:ffff::9 | 2001:db8:1:2:0:0:0:0/64",
                "2001:db8:1:3::1 | 2001:db8:1:3:0:0:0:0/64",
                "fe80::1%eth0 | fe80:0:0:0:0:0:0:0/64",
                "::ffff:1.2.3.4 | 1.2.3.4",
            })
    void peersAreKeyedWithoutAnyProxy(String peer, String expected) {
        ClientAddresses none = new ClientAddresses(List.of(), Optional.empty(), 64);
        assertEquals(expected, none.clientKey(peer, List.of("10.0.0.1")));
    }

    @org.junit.jupiter.api.Test
    void trustedProxiesNeedTheirHeader() {
        assertThrows(IllegalArgumentException.class, () -> new ClientAddresses(TRUSTED, Optional.empty(), 64));
    }

    @org.junit.jupiter.api.Test
    void aTrustedProxyThatSendsNoClientHeaderGetsExactlyOneWarning() {
        ClientAddresses addresses =
                new ClientAddresses(TRUSTED, Optional.of(ClientHeader.parse("X-Forwarded-For")), 64);
        try (LogCapture log = new LogCapture(ClientAddresses.class)) {
            assertEquals("203.0.113.7", addresses.clientKey("10.0.0.1", List.of("203.0.113.7")));
            assertEquals("203.0.113.7", addresses.clientKey("203.0.113.7", List.of()), "an untrusted peer");
            assertEquals(List.of(), log.at(Level.WARNING), "no warning while the header comes or need not");
            for (int i = 0; i < 5; i++) {
                assertEquals("10.0.0.1", addresses.clientKey("10.0.0.1", List.of()), "keyed by the proxy");
                assertEquals("10.0.0.2", addresses.clientKey("10.0.0.2", List.of()), "another proxy");
            }
            List<String> warnings = log.at(Level.WARNING);
            assertEquals(1, warnings.size(), "one warning, not one per request: " + warnings);
            assertTrue(
                    warnings.get(0).contains("trusted proxy 10.0.0.1 carried no X-Forwarded-For header"),
                    warnings.get(0));
            assertTrue(warnings.get(0).contains("tollgate.http.client-header"), warnings.get(0));
            assertTrue(log.oneLineEach(Level.WARNING));
        }
    }
}
