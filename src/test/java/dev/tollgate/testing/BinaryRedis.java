package dev.tollgate.testing;

import java.io.File;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** A {@code redis-server} process of this machine's: freeze is SIGSTOP, thaw SIGCONT, kill SIGKILL. */
final class BinaryRedis implements RedisRunner {

    private final List<String> extraArgs;
    private int port;
    private Path dir;
    private Process process;

    BinaryRedis(List<String> extraArgs) {
        this.extraArgs = List.copyOf(extraArgs);
    }

    @Override
    public void start(int port) throws IOException, InterruptedException {
        this.port = port;
        dir = Files.createTempDirectory("tollgate-redis-");
        launch();
    }

    private void launch() throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(binary(), "--port", Integer.toString(port), "--bind", "127.0.0.1"));
        cmd.addAll(List.of("--dir", dir.toString()));
        cmd.addAll(RedisServer.commonArgs());
        cmd.addAll(extraArgs);
        process = new ProcessBuilder(cmd)
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve("redis.log").toFile())
                .start();
        Process started = process;
        RedisProcesses.await(Duration.ofSeconds(10), "redis-server on port " + port + " to answer PING", () -> {
            if (!started.isAlive()) {
                throw new IllegalStateException(
                        "redis-server exited: " + RedisProcesses.read(dir.resolve("redis.log")));
            }
            return RedisProcesses.pings(port);
        });
    }

    @Override
    public void kill() throws InterruptedException {
        RedisProcesses.kill(process);
    }

    @Override
    public void freeze() throws IOException, InterruptedException {
        signal("STOP");
    }

    @Override
    public void thaw() throws IOException, InterruptedException {
        signal("CONT");
    }

    @Override
    public void restart() throws IOException, InterruptedException {
        signal("CONT");
        kill();
        awaitPortFree(Duration.ofSeconds(10));
        launch();
    }

    @Override
    public void stop() {
        try {
            signal("CONT");
            kill();
        } catch (IOException | InterruptedException e) {
            process.destroyForcibly();
        }
    }

    @Override
    public boolean running() {
        return process != null && process.isAlive();
    }

    private void signal(String name) throws IOException, InterruptedException {
        if (!running()) {
            return;
        }
        Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(process.pid())).start();
        if (!kill.waitFor(5, TimeUnit.SECONDS) || kill.exitValue() != 0) {
            throw new IOException("kill -" + name + " " + process.pid() + " failed");
        }
    }

    private void awaitPortFree(Duration limit) throws InterruptedException {
        long deadline = System.nanoTime() + limit.toNanos();
        while (System.nanoTime() < deadline) {
            try (ServerSocket s = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
                s.setReuseAddress(true);
                return;
            } catch (IOException busy) {
                Thread.sleep(20);
            }
        }
    }

    /** The {@code redis-server} to run: {@code TOLLGATE_REDIS_SERVER}, else the one on PATH. */
    static String binary() {
        String configured = System.getenv("TOLLGATE_REDIS_SERVER");
        if (configured != null && !configured.isBlank()) {
            return configured;
        }
        String found = onPath();
        if (found == null) {
            throw new IllegalStateException("redis-server was not found on PATH. The tests need a real Redis: "
                    + "install it (Debian/Ubuntu: apt-get install -y redis-server; macOS: brew install redis), "
                    + "point TOLLGATE_REDIS_SERVER at the binary, or give them a container engine (see README, "
                    + "Testing).");
        }
        return found;
    }

    /** {@code redis-server} on PATH, or null. */
    static String onPath() {
        for (String dirName : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            File f = new File(dirName, "redis-server");
            if (f.canExecute()) {
                return f.getAbsolutePath();
            }
        }
        return null;
    }
}
