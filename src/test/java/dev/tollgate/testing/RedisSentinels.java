package dev.tollgate.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import redis.clients.jedis.Jedis;

/**
 * One master, one replica and three Sentinels ({@code sentinel monitor m 127.0.0.1 <port> 2}, {@code
 * down-after-milliseconds 1000}) on free loopback ports, one set per test class (and its {@code @Nested} classes). {@link #start()} returns
 * once the replica is in sync and every Sentinel knows the replica and the other two Sentinels, so a
 * failover can start at once.
 *
 * <p>Always from the {@code redis-server} binary, whatever {@link RedisBackend} the other tests use:
 * Sentinels and replicas announce the addresses they see, and in containers those are the bridge
 * network's, not the loopback ports the client is given.
 */
public final class RedisSentinels implements BeforeAllCallback, AfterAllCallback {

    /** The name the Sentinels know the master by. */
    public static final String MASTER_NAME = "m";

    private static final int SENTINELS = 3;

    // Diskless sync waits 5 s by default for more replicas to join; there is only one.
    private final RedisServer master = RedisServer.onBinary("--repl-diskless-sync-delay", "0");
    private RedisServer replica;
    private final List<Integer> sentinelPorts = new ArrayList<>();
    private final List<Process> sentinels = new ArrayList<>();
    private Path dir;
    private Duration setupTime;

    /** The test class that started the set: its {@code @Nested} classes share it, and it alone stops it. */
    private Class<?> owner;

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        if (owner == null) {
            owner = context.getRequiredTestClass();
            start();
        }
    }

    @Override
    public void afterAll(ExtensionContext context) {
        if (context.getRequiredTestClass() == owner) {
            owner = null;
            stop();
        }
    }

    public synchronized void start() throws IOException, InterruptedException {
        long begin = System.nanoTime();
        dir = Files.createTempDirectory("tollgate-sentinel-");
        master.start();
        replica = RedisServer.onBinary("--replicaof", "127.0.0.1", Integer.toString(master.port()));
        replica.start();
        for (int i = 0; i < SENTINELS; i++) {
            sentinelPorts.add(Ports.free());
        }
        for (int i = 0; i < SENTINELS; i++) {
            int port = sentinelPorts.get(i);
            Path conf = dir.resolve("sentinel-" + port + ".conf");
            Files.writeString(conf, config(i));
            sentinels.add(RedisProcesses.start(
                    List.of(RedisServer.binary(), conf.toString(), "--sentinel"),
                    dir.resolve("sentinel-" + port + ".log"),
                    port));
        }
        // The replica syncs while the Sentinels find each other (hello messages every 2 s).
        RedisProcesses.await(Duration.ofSeconds(20), "the replica's first sync", this::replicaInSync);
        RedisProcesses.await(Duration.ofSeconds(30), "every Sentinel to know its peers and the replica", this::ready);
        setupTime = Duration.ofNanos(System.nanoTime() - begin);
    }

    /**
     * Sentinel {@code i}'s config. Each is told its own id, the other Sentinels and the replica up front,
     * which they would otherwise learn from hello messages (every 2 s) and the master's INFO (every 10 s).
     */
    private String config(int i) {
        List<String> lines = new ArrayList<>(List.of(
                "port " + sentinelPorts.get(i),
                "bind 127.0.0.1",
                "dir " + dir,
                "sentinel myid " + id(i),
                "sentinel monitor " + MASTER_NAME + " 127.0.0.1 " + master.port() + " 2",
                "sentinel down-after-milliseconds " + MASTER_NAME + " 1000",
                "sentinel failover-timeout " + MASTER_NAME + " 3000",
                "sentinel parallel-syncs " + MASTER_NAME + " 1",
                "sentinel known-replica " + MASTER_NAME + " 127.0.0.1 " + replica.port()));
        for (int other = 0; other < SENTINELS; other++) {
            if (other != i) {
                lines.add("sentinel known-sentinel " + MASTER_NAME + " 127.0.0.1 " + sentinelPorts.get(other) + " "
                        + id(other));
            }
        }
        return String.join("\n", lines) + "\n";
    }

    private static String id(int i) {
        return String.format("%040x", i + 1);
    }

    private boolean replicaInSync() {
        try (Jedis j = replica.admin()) {
            return j.info("replication").contains("master_link_status:up");
        } catch (RuntimeException notYet) {
            return false;
        }
    }

    private boolean ready() {
        for (int port : sentinelPorts) {
            try (Jedis j = RedisProcesses.jedis(port, 500)) {
                Map<String, String> m = j.sentinelMaster(MASTER_NAME);
                if (!"2".equals(m.get("num-other-sentinels")) || !"1".equals(m.get("num-slaves"))) {
                    return false;
                }
            } catch (RuntimeException notYet) {
                return false;
            }
        }
        return true;
    }

    /** SIGKILL of the current master process (the one started as master). */
    public synchronized void killMaster() throws IOException, InterruptedException {
        master.kill();
    }

    /** Where the Sentinels say the master is, as a port; asks the first Sentinel that answers. */
    public int masterPort() {
        for (int port : sentinelPorts) {
            try (Jedis j = RedisProcesses.jedis(port, 500)) {
                return Integer.parseInt(
                        j.sentinelGetMasterAddrByName(MASTER_NAME).get(1));
            } catch (RuntimeException next) {
                // ask the next one
            }
        }
        throw new IllegalStateException("no Sentinel answered");
    }

    public synchronized void stop() {
        for (Process p : sentinels) {
            try {
                RedisProcesses.kill(p);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        if (replica != null) {
            replica.stop();
        }
        master.stop();
    }

    /** {@code redis-sentinel://127.0.0.1:S1,127.0.0.1:S2,127.0.0.1:S3/m} */
    public String url() {
        return "redis-sentinel://"
                + String.join(
                        ",", sentinelPorts.stream().map(p -> "127.0.0.1:" + p).toList()) + "/" + MASTER_NAME;
    }

    public RedisServer master() {
        return master;
    }

    public RedisServer replica() {
        return replica;
    }

    /** From the master's start until every Sentinel is ready for a failover. */
    public Duration setupTime() {
        return setupTime;
    }
}
