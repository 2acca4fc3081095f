package dev.tollgate.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import org.junit.jupiter.api.Test;

/** Each of Surefire's two JVMs takes ports from its own range, never one twice (see {@link Ports}). */
class PortsTest {

    @Test
    void aForkedJvmTakesItsOwnRangeAndNeverThePortItGaveBefore() throws IOException {
        int fork = Ports.fork();
        assertTrue(fork == 1 || fork == 2, "Surefire sets tollgate.test.fork from surefire.forkNumber: " + fork);
        int base = Ports.FIRST + (fork - 1) * Ports.SPAN;
        int a = Ports.free();
        int b = Ports.free();
        assertNotEquals(a, b);
        for (int port : new int[] {a, b}) {
            assertTrue(port >= base && port < base + Ports.SPAN, port + " in " + base + "+" + Ports.SPAN);
        }
        assertEquals(0, base % 1000);
    }
}
