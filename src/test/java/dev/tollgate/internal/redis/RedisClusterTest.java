package dev.tollgate.internal.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tollgate.LimitPolicy;
import dev.tollgate.internal.engine.RedisGuards;
import dev.tollgate.internal.ratelimit.Algorithm;
import dev.tollgate.internal.ratelimit.RedisRateLimitStore;
import dev.tollgate.internal.ratelimit.StoreKeys;
import dev.tollgate.testing.RedisCluster;
import dev.tollgate.testing.Timeouts;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;

/** Decisions on a 3-master Redis Cluster: exact on every master, one script cache per master. */
class RedisClusterTest {

    @RegisterExtension
    static final RedisCluster cluster = RedisCluster.shared();

    static RedisLink link;
    static RedisRateLimitStore store;

    @BeforeAll
    static void connect() {
        System.out.println(
                "cluster of 3 masters ready in " + cluster.setupTime().toMillis() + " ms");
        link = RedisClients.create(RedisSettings.of(cluster.url(), Timeouts.GENEROUS, 32));
        store = RedisRateLimitStore.using(Algorithm.TOKEN_BUCKET, link);
    }

    @AfterAll
    static void close() {
        store.close();
        link.close();
    }

    /** One bucket key per master, found by asking the cluster which master owns it. */
    static List<String> keyOnEveryMaster(String limit) {
        List<String> keys = new ArrayList<>(List.of("", "", ""));
        while (keys.contains("")) {
            String key = StoreKeys.DEFAULT.of(limit, UUID.randomUUID().toString());
            int owner = cluster.ownerOf(key);
            if (keys.get(owner).isEmpty()) {
                keys.set(owner, key);
            }
        }
        return keys;
    }

    @Test
    void exactOnEveryMasterWith32InFlight() throws Exception {
        LimitPolicy p = LimitPolicy.quota("cluster", 100);
        List<String> keys = keyOnEveryMaster("cluster");
        int[] admitted = admitted(p, keys, 1000, 32);
        for (int m = 0; m < 3; m++) {
            assertEquals(100, admitted[m], "master " + m + " (port " + cluster.port(m) + ")");
            try (Jedis j = cluster.admin(m)) {
                assertTrue(j.exists(keys.get(m)), "the bucket lives on master " + m);
            }
        }
    }

    @Test
    void scriptFlushOnOneMasterCostsNoDecision() {
        LimitPolicy p = LimitPolicy.quota("cluster-flush", 3);
        List<String> keys = keyOnEveryMaster("cluster-flush");
        String sha = RedisRateLimitStore.script(Algorithm.TOKEN_BUCKET).sha1();
        keys.forEach(k -> assertEquals(2, store.tryConsume(p, k).remaining()));
        try (Jedis j = cluster.admin(1)) {
            j.scriptFlush();
        }
        assertEquals(1, store.tryConsume(p, keys.get(1)).remaining(), "NOSCRIPT on master 1, EVAL there");
        for (int m = 0; m < 3; m++) {
            try (Jedis j = cluster.admin(m)) {
                assertTrue(j.scriptExists(sha), "master " + m + " has the script");
            }
            assertEquals(m == 1 ? 0 : 1, store.tryConsume(p, keys.get(m)).remaining());
        }
    }

    @Test
    void loadScriptsLoadsEveryMaster() {
        for (int m = 0; m < 3; m++) {
            try (Jedis j = cluster.admin(m)) {
                j.scriptFlush();
            }
        }
        link.loadScripts();
        for (int m = 0; m < 3; m++) {
            try (Jedis j = cluster.admin(m)) {
                for (LuaScript s : LuaScript.all()) {
                    assertTrue(j.scriptExists(s.sha1()), s.name() + " on master " + m);
                }
            }
        }
    }

    @Test
    void pingAndTheProbeAnswer() {
        assertTrue(link.ping());
        assertNotNull(RedisGuards.probe(link), "TIME from the probe key's master");
        assertFalse(LuaScript.all().isEmpty());
    }

    /** {@code checks} checks on each key, interleaved, {@code inFlight} at a time; admitted per key. */
    static int[] admitted(LimitPolicy p, List<String> keys, int checks, int inFlight) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(inFlight);
        Semaphore slots = new Semaphore(inFlight);
        try {
            List<Future<Boolean>> results = new ArrayList<>();
            for (int i = 0; i < checks * keys.size(); i++) {
                String key = keys.get(i % keys.size());
                slots.acquire();
                results.add(pool.submit(() -> {
                    try {
                        return store.tryConsume(p, key).allowed();
                    } finally {
                        slots.release();
                    }
                }));
            }
            int[] admitted = new int[keys.size()];
            for (int i = 0; i < results.size(); i++) {
                admitted[i % keys.size()] += results.get(i).get() ? 1 : 0;
            }
            return admitted;
        } finally {
            pool.shutdownNow();
        }
    }
}
