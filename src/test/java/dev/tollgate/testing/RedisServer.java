package dev.tollgate.testing;

import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import redis.clients.jedis.Jedis;

/**
 * A private {@code redis-server} on a free loopback port, one per test class, that tests may kill,
 * freeze and restart. Register it with {@code @RegisterExtension static final RedisServer redis = new
 * RedisServer();}.
 *
 * <p>No Docker engine runs on this project's machines, so the binary is used. When it is missing the
 * tests fail, saying how to install it: a limiter's Redis behaviour is never tested against a stand-in.
 */
public final class RedisServer implements BeforeAllCallback, AfterAllCallback, TestClock {

    private final List<String> extraArgs;
    private int fixedPort;
    private int port;
    private Process process;
    private Path dir;

    public RedisServer(String... extraArgs) {
        this.extraArgs = List.of(extraArgs);
    }

    /** A server on a port chosen beforehand, such as the one a Liberty server was told to use. */
    public static RedisServer onPort(int port) {
        RedisServer server = new RedisServer();
        server.fixedPort = port;
        return server;
    }

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        start(fixedPort);
    }

    @Override
    public void afterAll(ExtensionContext context) {
        stop();
    }

    /** Starts on a free port (or on {@code fixedPort} when that is &gt; 0). */
    public synchronized void start(int fixedPort) throws IOException, InterruptedException {
        port = fixedPort > 0 ? fixedPort : freePort();
        dir = Files.createTempDirectory("tollgate-redis-");
        launch();
    }

    public synchronized void start() throws IOException, InterruptedException {
        start(0);
    }

    private void launch() throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(
                binary(),
                "--port",
                Integer.toString(port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                dir.toString(),
                "--enable-debug-command",
                "yes"));
        cmd.addAll(extraArgs);
        process = new ProcessBuilder(cmd)
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve("redis.log").toFile())
                .start();
        awaitPing(Duration.ofSeconds(10));
    }

    /** SIGKILL: the process is gone, connections are refused. */
    public synchronized void kill() throws InterruptedException {
        if (process != null && process.isAlive()) {
            process.destroyForcibly();
            process.waitFor(10, TimeUnit.SECONDS);
        }
    }

    /** SIGSTOP: the process is frozen, the kernel keeps its connections open. */
    public synchronized void pause() throws IOException, InterruptedException {
        signal("STOP");
    }

    /** SIGCONT after {@link #pause()}. */
    public synchronized void resume() throws IOException, InterruptedException {
        signal("CONT");
    }

    /** Kills it and starts a new one on the same port: every key and the script cache are gone. */
    public synchronized void restart() throws IOException, InterruptedException {
        if (process != null) {
            signal("CONT");
        }
        kill();
        awaitPortFree(Duration.ofSeconds(10));
        launch();
    }

    public synchronized void stop() {
        if (process != null) {
            try {
                signal("CONT");
                kill();
            } catch (IOException | InterruptedException e) {
                process.destroyForcibly();
            }
        }
    }

    public int port() {
        return port;
    }

    public String url() {
        return "redis://127.0.0.1:" + port;
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
    public void elapse(java.time.Duration d) throws InterruptedException {
        long until = timeMicros() + d.toNanos() / 1000;
        for (long now = timeMicros(); now < until; now = timeMicros()) {
            Thread.sleep(Math.max(1, (until - now) / 1000));
        }
    }

    private void signal(String name) throws IOException, InterruptedException {
        if (process == null || !process.isAlive()) {
            return;
        }
        Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(process.pid())).start();
        if (!kill.waitFor(5, TimeUnit.SECONDS) || kill.exitValue() != 0) {
            throw new IOException("kill -" + name + " " + process.pid() + " failed");
        }
    }

    private void awaitPing(Duration limit) throws InterruptedException, IOException {
        long deadline = System.nanoTime() + limit.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IOException("redis-server exited: " + Files.readString(dir.resolve("redis.log")));
            }
            try (Jedis j = RedisProcesses.jedis(port, 200)) {
                if ("PONG".equals(j.ping())) {
                    return;
                }
            } catch (RuntimeException notYet) {
                Thread.sleep(20);
            }
        }
        throw new IOException("redis-server on port " + port + " did not answer PING within " + limit);
    }

    private void awaitPortFree(Duration limit) throws InterruptedException {
        long deadline = System.nanoTime() + limit.toNanos();
        while (System.nanoTime() < deadline) {
            try (ServerSocket s = new ServerSocket(port, 1, java.net.InetAddress.getLoopbackAddress())) {
                s.setReuseAddress(true);
                return;
            } catch (IOException busy) {
                Thread.sleep(20);
            }
        }
    }

    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    static String binary() {
        String configured = System.getenv("TOLLGATE_REDIS_SERVER");
        if (configured != null && !configured.isBlank()) {
            return configured;
        }
        for (String dirName : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            File f = new File(dirName, "redis-server");
            if (f.canExecute()) {
                return f.getAbsolutePath();
            }
        }
        throw new IllegalStateException("redis-server was not found on PATH. The tests need a real Redis: "
                + "install it (Debian/Ubuntu: apt-get install -y redis-server; macOS: brew install redis) "
                + "or point TOLLGATE_REDIS_SERVER at the binary.");
    }
}
