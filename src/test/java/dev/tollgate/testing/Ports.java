package dev.tollgate.testing;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Free loopback ports, for every server a test starts (Redis, Cluster nodes, Sentinels, Liberty).
 *
 * <p>Surefire runs two test JVMs at once ({@code tollgate.test.fork} {@code fork-1} and {@code fork-2},
 * from {@code surefire.forkNumber}). A port the kernel calls free may be handed to the other JVM's server, or to an
 * outgoing connection, before this JVM's server binds it (a Cluster node's bus port was, once). So a
 * forked JVM takes ports from a range of its own below the kernel's ephemeral range (which starts at
 * 32768), one after the other, never the same one twice: 20000-25999 for the first, 26000-31999 for the
 * second. Elsewhere (an IT, a single JVM) the kernel chooses.
 */
public final class Ports {

    static final int FIRST = 20_000;
    static final int SPAN = 6_000;
    private static final AtomicInteger NEXT = new AtomicInteger();

    private Ports() {}

    /** A port nothing listens on at this moment, of this JVM's own range when it is a forked test JVM. */
    public static int free() throws IOException {
        int fork = fork();
        if (fork < 1 || fork > 2) {
            try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
                return s.getLocalPort();
            }
        }
        int base = FIRST + (fork - 1) * SPAN;
        for (int tried = 0; tried < SPAN; tried++) {
            int port = base + Math.floorMod(NEXT.getAndIncrement(), SPAN);
            if (bindable(port)) {
                return port;
            }
        }
        throw new IOException("no free port in " + base + "-" + (base + SPAN - 1));
    }

    /**
     * This JVM's fork number, 1 or 2, from {@code tollgate.test.fork} ({@code fork-<n>}: Surefire fills in
     * {@code ${surefire.forkNumber}} only inside a longer value); 0 when it is not a forked test JVM.
     */
    static int fork() {
        String v = System.getProperty("tollgate.test.fork", "");
        return v.matches("fork-[12]") ? v.charAt(5) - '0' : 0;
    }

    private static boolean bindable(int port) {
        try (ServerSocket s = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
            return true;
        } catch (IOException taken) {
            return false;
        }
    }
}
