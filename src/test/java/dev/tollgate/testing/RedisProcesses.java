package dev.tollgate.testing;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;

/** What {@link RedisCluster} and {@link RedisSentinels} share: starting, awaiting and killing Redis processes. */
final class RedisProcesses {

    private RedisProcesses() {}

    /** Starts {@code args} with its output in {@code log}, and waits until it answers PING on {@code port}. */
    static Process start(List<String> args, Path log, int port) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(args)
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        await(Duration.ofSeconds(10), "port " + port + " to answer PING", () -> {
            if (!p.isAlive()) {
                throw new IllegalStateException(args.get(0) + " exited: " + read(log));
            }
            return pings(port);
        });
        return p;
    }

    /**
     * An admin connection to a local test Redis, speaking RESP2 without negotiating as Tollgate's clients
     * do (so Jedis does not warn about auto-negotiation on every connection).
     */
    static Jedis jedis(int port, int timeoutMillis) {
        return new Jedis(
                new HostAndPort("127.0.0.1", port),
                DefaultJedisClientConfig.builder()
                        .timeoutMillis(timeoutMillis)
                        .autoNegotiateProtocol(false)
                        .build());
    }

    static boolean pings(int port) {
        try (Jedis j = jedis(port, 200)) {
            return "PONG".equals(j.ping());
        } catch (RuntimeException notYet) {
            return false;
        }
    }

    /** Polls {@code done} every 20 ms until it holds; fails naming {@code what} after {@code limit}. */
    static void await(Duration limit, String what, BooleanSupplier done) throws InterruptedException {
        long deadline = System.nanoTime() + limit.toNanos();
        while (!done.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("waited " + limit + " for " + what);
            }
            Thread.sleep(20);
        }
    }

    static void kill(Process p) throws InterruptedException {
        if (p != null && p.isAlive()) {
            p.destroyForcibly();
            p.waitFor(10, TimeUnit.SECONDS);
        }
    }

    /** Runs a short command to its end, failing with its output if it fails. */
    static String run(List<String> args, Duration limit) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(args).redirectErrorStream(true).start();
        if (!p.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS)) {
            p.destroyForcibly();
            throw new IOException(String.join(" ", args) + " did not finish within " + limit);
        }
        String out = new String(p.getInputStream().readAllBytes());
        if (p.exitValue() != 0) {
            throw new IOException(String.join(" ", args) + " failed (" + p.exitValue() + "): " + out);
        }
        return out;
    }

    /** {@code redis-cli} beside {@code redis-server}, or on PATH; a clear failure when missing. */
    static String cli() {
        File beside = new File(new File(RedisServer.binary()).getParentFile(), "redis-cli");
        if (beside.canExecute()) {
            return beside.getAbsolutePath();
        }
        for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            File f = new File(dir, "redis-cli");
            if (f.canExecute()) {
                return f.getAbsolutePath();
            }
        }
        throw new IllegalStateException("redis-cli was not found beside redis-server nor on PATH. The cluster"
                + " tests need it: install it (Debian/Ubuntu: apt-get install -y redis-tools; macOS: brew install"
                + " redis).");
    }

    static String read(Path log) {
        try {
            return Files.readString(log);
        } catch (IOException e) {
            return "(no log: " + e + ")";
        }
    }
}
