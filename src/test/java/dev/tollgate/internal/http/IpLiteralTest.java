package dev.tollgate.internal.http;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class IpLiteralTest {

    @ParameterizedTest
    @CsvSource({
        "0.0.0.0, 0.0.0.0",
        "255.255.255.255, 255.255.255.255",
        "203.0.113.7, 203.0.113.7",
        "::, 0:0:0:0:0:0:0:0",
        "::1, 0:0:0:0:0:0:0:1",
        "1::, 1:0:0:0:0:0:0:0",
        "2001:DB8::A, 2001:db8:0:0:0:0:0:a",
        "1:2:3:4:5:6:7:8, 1:2:3:4:5:6:7:8",
        "1:2:3:4:5:6:7::, 1:2:3:4:5:6:7:0",
        "::2:3:4:5:6:7:8, 0:2:3:4:5:6:7:8",
        "64:ff9b::192.0.2.33, 64:ff9b:0:0:0:0:c000:221",
        "::ffff:192.0.2.33, 192.0.2.33",
        "::ffff:c000:221, 192.0.2.33",
        "0:0:0:0:0:ffff:192.0.2.33, 192.0.2.33",
    })
    void literalsAreParsedAsTheJdkDoes(String text, String formatted) throws Exception {
        byte[] b = IpLiteral.parse(text).orElseThrow();
        assertEquals(formatted, IpLiteral.format(b));
        // The JDK reads a literal without a lookup, so it is a fair reference for what a literal means.
        assertArrayEquals(InetAddress.getByName(text).getAddress(), b);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "",
                " 1.2.3.4",
                "1.2.3",
                "1.2.3.4.5",
                "256.1.1.1",
                "01.2.3.4",
                "1.2.3.-4",
                "0x7f.0.0.1",
                "16909060",
                "1a2b.bad.cafe",
                "cafe",
                "localhost",
                "\u0661.\u0662.\u0663.\u0664",
                "1:2:3:4:5:6:7:8:9",
                "1:2:3:4:5:6:7",
                "1::2::3",
                ":1:2:3:4:5:6:7",
                "1:2:3:4:5:6:7:",
                "12345::",
                "g::",
                "::ffff:1.2.3",
                "::1.2.3.4:5",
                "fe80::1%eth0",
                "[::1]",
                "1111:2222:3333:4444:5555:6666:7777:8888:",
            })
    void anythingElseIsRefused(String text) {
        assertTrue(IpLiteral.parse(text).isEmpty(), text);
    }
}
