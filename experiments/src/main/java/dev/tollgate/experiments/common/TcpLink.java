package dev.tollgate.experiments.common;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.concurrent.atomic.AtomicLong;
import org.netcrusher.core.reactor.NioReactor;
import org.netcrusher.core.throttle.Throttler;
import org.netcrusher.tcp.TcpCrusher;
import org.netcrusher.tcp.TcpCrusherBuilder;

/**
 * A TCP proxy (NetCrusher) in front of a Redis, for network faults: a frozen link (nothing moves, new
 * connections are not served) and a link that delays every reply. The same faults, caused the same way,
 * as the root build's {@code dev.tollgate.testing.TcpLink} that {@code RedisOutageTest} uses.
 */
public final class TcpLink implements AutoCloseable {

    private final NioReactor reactor;
    private final TcpCrusher crusher;
    private final AtomicLong delayNanos = new AtomicLong(Throttler.NO_DELAY_NS);
    private final int port;

    public TcpLink(int targetPort) throws IOException {
        this.port = freePort();
        this.reactor = new NioReactor(1);
        this.crusher = TcpCrusherBuilder.builder()
                .withReactor(reactor)
                .withBindAddress("127.0.0.1", port)
                .withConnectAddress("127.0.0.1", targetPort)
                .withIncomingThrottlerFactory(addr -> buffer -> delayNanos.get())
                .buildAndOpen();
    }

    public String url() {
        return "redis://127.0.0.1:" + port;
    }

    /** Nothing moves in either direction, and new connections are not served. */
    public void freeze() {
        crusher.freeze();
    }

    public void unfreeze() {
        crusher.unfreeze();
    }

    /** Delays every reply from Redis by {@code millis}. */
    public void slow(long millis) {
        delayNanos.set(millis * 1_000_000);
    }

    /** Replies flow at full speed again. */
    public void fast() {
        delayNanos.set(Throttler.NO_DELAY_NS);
    }

    @Override
    public void close() {
        crusher.close();
        reactor.close();
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }
}
