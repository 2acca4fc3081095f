package dev.tollgate.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import redis.clients.jedis.Jedis;

/**
 * A Redis Cluster of {@code masters} masters and no replicas, on free loopback ports in a temporary
 * directory. {@code @RegisterExtension static final RedisCluster cluster = RedisCluster.shared();} is the
 * one 3-master cluster of the test JVM, started by the first class that asks for it: each class finds it
 * empty (keys, scripts and statistics flushed on every master), and may not kill a master. {@code new
 * RedisCluster(3)} is a class's own, stopped after the class: a class that kills a master uses one.
 *
 * <p>The nodes run with {@code cluster-require-full-coverage no} and a 1 s node timeout, as Tollgate's
 * README advises: a dead master then costs only its own slots, the others keep answering.
 *
 * <p>Always from the {@code redis-server} binary, whatever {@link RedisBackend} the other tests use:
 * cluster nodes tell clients where each slot lives by the address they see, which in containers is the
 * bridge network's, not the loopback ports the client can reach.
 *
 * <p>A {@link TestClock} too: every master runs on this machine's one clock, read by {@code TIME} from the
 * first master that answers.
 */
public final class RedisCluster implements BeforeAllCallback, AfterAllCallback, TestClock {

    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(RedisCluster.class);
    private static final RedisCluster SHARED = new RedisCluster(3, true);

    private final int masters;
    private final boolean shared;
    private final List<Integer> ports = new ArrayList<>();
    private final List<Process> processes = new ArrayList<>();
    private Path dir;
    private Duration setupTime;

    /** A private cluster for one test class, which may kill its masters. */
    public RedisCluster(int masters) {
        this(masters, false);
    }

    private RedisCluster(int masters, boolean shared) {
        if (masters < 3) {
            throw new IllegalArgumentException("masters must be >= 3 (redis-cli's minimum), but was " + masters);
        }
        this.masters = masters;
        this.shared = shared;
    }

    /** The 3-master cluster every test class of this JVM shares; no class may kill its masters. */
    public static RedisCluster shared() {
        return SHARED;
    }

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        if (!shared) {
            start();
            return;
        }
        claim();
        context.getRoot()
                .getStore(NAMESPACE)
                .getOrComputeIfAbsent("stop", k -> (AutoCloseable) this::stop, AutoCloseable.class);
    }

    @Override
    public void afterAll(ExtensionContext context) {
        if (!shared) {
            stop();
        }
    }

    /** Empty on every master, as a new cluster would be; started on first use. */
    private synchronized void claim() throws IOException, InterruptedException {
        if (processes.isEmpty()) {
            start();
            return;
        }
        for (int i = 0; i < masters; i++) {
            try (Jedis j = admin(i)) {
                j.flushAll();
                j.scriptFlush();
                j.configResetStat();
            }
        }
    }

    /** Starts the nodes, creates the cluster and waits for {@code cluster_state:ok} on every node. */
    public synchronized void start() throws IOException, InterruptedException {
        long begin = System.nanoTime();
        dir = Files.createTempDirectory("tollgate-cluster-");
        List<String> create = new ArrayList<>(List.of(RedisProcesses.cli(), "--cluster", "create"));
        for (int i = 0; i < masters; i++) {
            int port = Ports.free();
            ports.add(port);
            processes.add(RedisProcesses.start(nodeArgs(port), dir.resolve("node-" + port + ".log"), port));
            create.add("127.0.0.1:" + port);
        }
        create.addAll(List.of("--cluster-replicas", "0", "--cluster-yes"));
        RedisProcesses.run(create, Duration.ofSeconds(30));
        RedisProcesses.await(Duration.ofSeconds(20), "cluster_state:ok on every node", this::allOk);
        setupTime = Duration.ofNanos(System.nanoTime() - begin);
    }

    private List<String> nodeArgs(int port) throws IOException {
        int bus = Ports.free();
        return List.of(
                RedisServer.binary(),
                "--port",
                Integer.toString(port),
                "--bind",
                "127.0.0.1",
                "--cluster-enabled",
                "yes",
                "--cluster-port",
                Integer.toString(bus),
                "--cluster-config-file",
                dir.resolve("nodes-" + port + ".conf").toString(),
                "--cluster-node-timeout",
                "1000",
                "--cluster-require-full-coverage",
                "no",
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                dir.toString());
    }

    private boolean allOk() {
        for (int port : ports) {
            try (Jedis j = RedisProcesses.jedis(port, 500)) {
                if (!j.clusterInfo().contains("cluster_state:ok")) {
                    return false;
                }
            } catch (RuntimeException notYet) {
                return false;
            }
        }
        return true;
    }

    /** SIGKILL of master {@code i}: its slots stay assigned to it, and unserved. Not on the shared cluster. */
    public synchronized void kill(int i) throws InterruptedException {
        if (shared) {
            throw new IllegalStateException(
                    "the shared cluster's masters are every class's: a test that kills one uses new RedisCluster(3)");
        }
        RedisProcesses.kill(processes.get(i));
    }

    public synchronized void stop() {
        for (Process p : processes) {
            try {
                RedisProcesses.kill(p);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        processes.clear();
        ports.clear();
    }

    /** {@code redis-cluster://127.0.0.1:P1,127.0.0.1:P2,...} */
    public String url() {
        return "redis-cluster://"
                + String.join(",", ports.stream().map(p -> "127.0.0.1:" + p).toList());
    }

    public int port(int i) {
        return ports.get(i);
    }

    public int size() {
        return masters;
    }

    /** From the first node start to {@code cluster_state:ok} on all of them. */
    public Duration setupTime() {
        return setupTime;
    }

    /** A plain connection to master {@code i}; the caller closes it. */
    public Jedis admin(int i) {
        return RedisProcesses.jedis(ports.get(i), 2000);
    }

    /** Redis {@code TIME} in microseconds, from the first master that answers (a test may kill one). */
    @Override
    public long nowMicros() {
        for (int i = 0; i < masters; i++) {
            try (Jedis j = admin(i)) {
                List<String> t = j.time();
                return Long.parseLong(t.get(0)) * 1_000_000 + Long.parseLong(t.get(1));
            } catch (RuntimeException deadNode) {
                // ask the next one
            }
        }
        throw new IllegalStateException("no node answered TIME");
    }

    /** Sleeps until at least {@code d} has passed on the cluster's clock ({@code TIME}). */
    @Override
    public void elapse(Duration d) throws InterruptedException {
        long until = nowMicros() + d.toNanos() / 1000;
        for (long now = nowMicros(); now < until; now = nowMicros()) {
            Thread.sleep(Math.max(1, (until - now) / 1000));
        }
    }

    /** Which master owns {@code key}'s slot, by {@code CLUSTER KEYSLOT} and {@code CLUSTER NODES}. */
    public int ownerOf(String key) {
        for (int i = 0; i < masters; i++) {
            try (Jedis j = admin(i)) {
                return ownerOf(j.clusterKeySlot(key), j.clusterNodes());
            } catch (RuntimeException deadNode) {
                // ask the next one
            }
        }
        throw new IllegalStateException("no node answered CLUSTER KEYSLOT");
    }

    private int ownerOf(long slot, String nodes) {
        for (String line : nodes.split("\n")) {
            String[] f = line.trim().split(" ");
            if (f.length < 9 || !f[2].contains("master")) {
                continue;
            }
            int port = Integer.parseInt(f[1].substring(f[1].indexOf(':') + 1, f[1].indexOf('@')));
            for (int k = 8; k < f.length; k++) {
                if (f[k].startsWith("[")) {
                    continue; // a slot being migrated or imported
                }
                String[] range = f[k].split("-");
                long lo = Long.parseLong(range[0]);
                long hi = range.length > 1 ? Long.parseLong(range[1]) : lo;
                if (slot >= lo && slot <= hi) {
                    return ports.indexOf(port);
                }
            }
        }
        throw new IllegalStateException("no master owns slot " + slot + ":\n" + nodes);
    }
}
