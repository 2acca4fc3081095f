package dev.tollgate.testing;

import java.io.IOException;
import java.util.concurrent.atomic.AtomicLong;
import org.netcrusher.core.reactor.NioReactor;
import org.netcrusher.core.throttle.Throttler;
import org.netcrusher.tcp.TcpCrusher;
import org.netcrusher.tcp.TcpCrusherBuilder;

/**
 * A real TCP proxy (NetCrusher) between a client and a Redis, for network faults: a frozen link
 * (nothing moves, new connections are not served), a slow link, a reset of every connection.
 */
public final class TcpLink implements AutoCloseable {

    private final NioReactor reactor;
    private final TcpCrusher crusher;
    private final AtomicLong delayNanos = new AtomicLong(Throttler.NO_DELAY_NS);
    private final int port;

    public TcpLink(int targetPort) throws IOException {
        this.port = Ports.free();
        this.reactor = new NioReactor(1);
        this.crusher = TcpCrusherBuilder.builder()
                .withReactor(reactor)
                .withBindAddress("127.0.0.1", port)
                .withConnectAddress("127.0.0.1", targetPort)
                .withIncomingThrottlerFactory(addr -> buffer -> delayNanos.get())
                .buildAndOpen();
    }

    public int port() {
        return port;
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

    /** Closes every connection through the link; new ones are served. */
    public void reset() {
        crusher.closeAllPairs();
    }

    @Override
    public void close() {
        crusher.close();
        reactor.close();
    }
}
