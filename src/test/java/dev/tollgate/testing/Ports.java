package dev.tollgate.testing;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;

/** Free loopback ports, for every server a test starts (Redis, Cluster nodes, Sentinels, Liberty). */
public final class Ports {

    private Ports() {}

    /** A port nothing listens on at this moment (the kernel's choice on the loopback address). */
    public static int free() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }
}
