package dev.tollgate.experiments.common;

import java.io.File;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;

/**
 * A private {@code redis-server} on a free loopback port, with nothing persisted. Every experiment
 * starts its own, so no result depends on a server someone else configured or loaded.
 */
public final class LocalRedis implements AutoCloseable {

    private final int port;
    private final Path dir;
    private final List<String> command;
    private Process process;

    private LocalRedis(int port, Process process, Path dir, List<String> command) {
        this.port = port;
        this.process = process;
        this.dir = dir;
        this.command = command;
    }

    public static LocalRedis start() throws IOException, InterruptedException {
        return start(null);
    }

    /** Starts it on the CPUs {@code cpus} (a {@code taskset -c} list), or anywhere when null. */
    public static LocalRedis start(String cpus) throws IOException, InterruptedException {
        int port = freePort();
        Path dir = Files.createTempDirectory("tollgate-exp-redis-");
        List<String> cmd = new java.util.ArrayList<>();
        if (cpus != null) {
            cmd.addAll(List.of("taskset", "-c", cpus));
        }
        cmd.addAll(List.of(
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
                dir.toString()));
        LocalRedis redis = new LocalRedis(port, launch(cmd, dir), dir, List.copyOf(cmd));
        redis.awaitPing();
        return redis;
    }

    private static Process launch(List<String> cmd, Path dir) throws IOException {
        return new ProcessBuilder(cmd)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(
                        dir.resolve("redis.log").toFile()))
                .start();
    }

    /** SIGKILL: the process is gone, its connections are reset and new ones refused. */
    public synchronized void kill() throws InterruptedException {
        if (process.isAlive()) {
            process.destroyForcibly(); // SIGKILL on Linux
            process.waitFor(10, TimeUnit.SECONDS);
        }
    }

    /**
     * A new process on the same port after {@link #kill()}, as a restart by hand or by a supervisor:
     * every key and the script cache are gone. Returns once it answers PING.
     */
    public synchronized void restart() throws IOException, InterruptedException {
        kill();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!portFree() && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        process = launch(command, dir);
        awaitPing();
    }

    /** SIGSTOP: the process is frozen; the kernel keeps its connections open and accepts new ones. */
    public synchronized void pause() throws IOException, InterruptedException {
        signal("STOP");
    }

    /** SIGCONT after {@link #pause()}. */
    public synchronized void resume() throws IOException, InterruptedException {
        signal("CONT");
    }

    private void signal(String name) throws IOException, InterruptedException {
        if (!process.isAlive()) {
            throw new IOException("redis-server is not running");
        }
        Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(process.pid())).start();
        if (!kill.waitFor(5, TimeUnit.SECONDS) || kill.exitValue() != 0) {
            throw new IOException("kill -" + name + " " + process.pid() + " failed");
        }
    }

    private boolean portFree() {
        try (ServerSocket s = new ServerSocket()) {
            s.setReuseAddress(true);
            s.bind(new java.net.InetSocketAddress(InetAddress.getLoopbackAddress(), port), 1);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    public int port() {
        return port;
    }

    public String url() {
        return "redis://127.0.0.1:" + port;
    }

    /** A plain connection for setup and inspection; the caller closes it. */
    public Jedis admin() {
        return jedis(port, 5000);
    }

    /** A connection speaking RESP2 without negotiating, as Tollgate's clients do (no Jedis warning). */
    public static Jedis jedis(int port, int timeoutMillis) {
        return new Jedis(
                new HostAndPort("127.0.0.1", port),
                DefaultJedisClientConfig.builder()
                        .timeoutMillis(timeoutMillis)
                        .autoNegotiateProtocol(false)
                        .build());
    }

    public String version() {
        try (Jedis j = admin()) {
            return j.info("server")
                    .lines()
                    .filter(l -> l.startsWith("redis_version:"))
                    .map(l -> l.substring("redis_version:".length()).trim())
                    .findFirst()
                    .orElse("unknown");
        }
    }

    @Override
    public synchronized void close() {
        try {
            if (process.isAlive()) {
                signal("CONT"); // a stopped process would not act on SIGTERM
            }
        } catch (IOException e) {
            // destroyForcibly below still ends it
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        process.destroy();
        try {
            if (!process.waitFor(5, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    private void awaitPing() throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IOException("redis-server exited: " + Files.readString(dir.resolve("redis.log")));
            }
            try (Jedis j = jedis(port, 200)) {
                if ("PONG".equals(j.ping())) {
                    return;
                }
            } catch (RuntimeException notYet) {
                Thread.sleep(20);
            }
        }
        close();
        throw new IOException("redis-server on port " + port + " did not answer PING within 10s");
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    private static String binary() {
        String configured = System.getenv("TOLLGATE_REDIS_SERVER");
        if (configured != null && !configured.isBlank()) {
            return configured;
        }
        for (String d : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            File f = new File(d, "redis-server");
            if (f.canExecute()) {
                return f.getAbsolutePath();
            }
        }
        throw new IllegalStateException(
                "redis-server was not found on PATH: apt-get install -y redis-server, or set TOLLGATE_REDIS_SERVER");
    }
}
