package dev.tollgate.testing;

import java.io.IOException;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import redis.clients.jedis.Jedis;

/**
 * A real Redis on {@code 127.0.0.1:<port>} that tests may kill, freeze and restart: a container when a
 * Docker-compatible engine answers, the {@code redis-server} binary otherwise ({@link RedisBackend}).
 * Register it with {@code @RegisterExtension static final RedisServer redis = RedisServer.shared();}.
 *
 * <p>{@link #shared()} (and {@link #onPort(int)}) is one server for every test class of the JVM that asks
 * for it: each class finds it running, thawed and empty (keys, scripts and statistics flushed), so a
 * class that killed or froze it leaves nothing behind. {@code new RedisServer(args)} is a class's own,
 * stopped after the class. When Redis cannot be had the tests fail, saying how to get it: a limiter's
 * Redis behaviour is never tested against a stand-in.
 */
public final class RedisServer implements BeforeAllCallback, AfterAllCallback, TestClock {

    private static final Map<Integer, RedisServer> SHARED = new HashMap<>();
    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(RedisServer.class);

    private final RedisBackend backend;
    private final List<String> extraArgs;
    private final boolean shared;
    private final int fixedPort;
    private RedisRunner runner;
    private int port;

    /** A private server for one test class, on the chosen backend, started with {@code extraArgs}. */
    public RedisServer(String... extraArgs) {
        this(null, List.of(extraArgs), false, 0);
    }

    private RedisServer(RedisBackend backend, List<String> extraArgs, boolean shared, int fixedPort) {
        this.backend = backend;
        this.extraArgs = extraArgs;
        this.shared = shared;
        this.fixedPort = fixedPort;
    }

    /** A private server from the {@code redis-server} binary, whatever the chosen backend. */
    public static RedisServer onBinary(String... extraArgs) {
        return new RedisServer(RedisBackend.BINARY, List.of(extraArgs), false, 0);
    }

    /** The server every test class of this JVM shares, on a free port. */
    public static RedisServer shared() {
        return onPort(0);
    }

    /** The shared server on {@code port}, such as the one the Liberty servers were told to use. */
    public static synchronized RedisServer onPort(int port) {
        return SHARED.computeIfAbsent(port, p -> new RedisServer(null, List.of(), true, p));
    }

    /** Common to both backends: nothing on disk, and DEBUG allowed for fault tests. */
    static List<String> commonArgs() {
        return List.of("--save", "", "--appendonly", "no", "--enable-debug-command", "yes");
    }

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        if (!shared) {
            start(fixedPort);
            return;
        }
        claim();
        context.getRoot()
                .getStore(NAMESPACE)
                .getOrComputeIfAbsent("stop:" + fixedPort, k -> (AutoCloseable) this::stop, AutoCloseable.class);
    }

    @Override
    public void afterAll(ExtensionContext context) {
        if (!shared) {
            stop();
        }
    }

    /** Running, thawed and empty, as a new server would be; started on first use. */
    synchronized void claim() throws IOException, InterruptedException {
        if (runner == null) {
            start(fixedPort);
            return;
        }
        runner.thaw();
        if (!runner.running()) {
            runner.restart();
        }
        try (Jedis j = admin()) {
            j.clientUnpause();
            j.flushAll();
            j.scriptFlush();
            j.configResetStat();
        }
    }

    /** Starts on a free port (or on {@code fixedPort} when that is &gt; 0). */
    public synchronized void start(int fixedPort) throws IOException, InterruptedException {
        if (runner != null) {
            runner.stop();
        }
        port = fixedPort > 0 ? fixedPort : Ports.free();
        runner = (backend != null ? backend : RedisBackend.chosen()).runner(extraArgs);
        runner.start(port);
    }

    public synchronized void start() throws IOException, InterruptedException {
        start(0);
    }

    /** SIGKILL (or a container kill): the server is gone, connections are refused. */
    public synchronized void kill() throws IOException, InterruptedException {
        runner.kill();
    }

    /** Frozen (SIGSTOP, or a container pause): the kernel keeps its connections open, nothing answers. */
    public synchronized void pause() throws IOException, InterruptedException {
        runner.freeze();
    }

    /** Thawed after {@link #pause()}; nothing when not frozen. */
    public synchronized void resume() throws IOException, InterruptedException {
        runner.thaw();
    }

    /** Kills it and starts a new one on the same port: every key and the script cache are gone. */
    public synchronized void restart() throws IOException, InterruptedException {
        runner.restart();
    }

    public synchronized void stop() {
        if (runner != null) {
            runner.stop();
            runner = null;
        }
    }

    public int port() {
        return port;
    }

    /** Where it listens: always the loopback address, on either backend. */
    public String host() {
        return "127.0.0.1";
    }

    public String url() {
        return "redis://" + host() + ":" + port;
    }

    /** A plain connection for inspecting and breaking the server; the caller closes it. */
    public Jedis admin() {
        return RedisProcesses.jedis(port, 2000);
    }

    /** Deletes every key. */
    public void flushAll() {
        try (Jedis j = admin()) {
            j.flushAll();
        }
    }

    /** Redis {@code TIME} in microseconds. */
    public long timeMicros() {
        try (Jedis j = admin()) {
            List<String> t = j.time();
            return Long.parseLong(t.get(0)) * 1_000_000 + Long.parseLong(t.get(1));
        }
    }

    @Override
    public long nowMicros() {
        return timeMicros();
    }

    /** Sleeps until at least {@code d} has passed on this server's clock ({@code TIME}). */
    @Override
    public void elapse(Duration d) throws InterruptedException {
        long until = timeMicros() + d.toNanos() / 1000;
        for (long now = timeMicros(); now < until; now = timeMicros()) {
            Thread.sleep(Math.max(1, (until - now) / 1000));
        }
    }

    /** The {@code redis-server} binary, for the topologies that always run from it (Cluster, Sentinel). */
    static String binary() {
        return BinaryRedis.binary();
    }
}
