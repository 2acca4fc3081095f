package dev.tollgate.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.ConnectException;
import java.net.SocketTimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.exceptions.JedisConnectionException;

/**
 * The harness's faults mean the same on both backends, since the fault tests read their results as
 * SIGKILL and SIGSTOP would give them. Runs on the chosen backend, and again on the binary (pom.xml).
 */
class RedisServerTest {

    @RegisterExtension
    static final RedisServer redis = RedisServer.shared();

    static final String INCR = "return redis.call('INCR', KEYS[1])";

    @AfterEach
    void leaveItRunning() throws Exception {
        redis.claim();
    }

    @Test
    void killRefusesConnectionsAndRestartBringsAnEmptyServerOnTheSamePort() throws Exception {
        int port = redis.port();
        String sha;
        try (Jedis j = redis.admin()) {
            j.set("k", "v");
            sha = j.scriptLoad(INCR);
        }
        redis.kill();
        JedisConnectionException refused = assertThrows(JedisConnectionException.class, () -> ping(2000));
        assertTrue(causedBy(refused, ConnectException.class), "refused, not hung: " + refused);

        redis.restart();
        assertEquals(port, redis.port());
        try (Jedis j = redis.admin()) {
            assertEquals("PONG", j.ping());
            assertNull(j.get("k"), "no key survives a restart");
            assertFalse(j.scriptExists(sha), "nor a script");
        }
    }

    @Test
    void frozenServerHoldsConnectionsWithoutAnsweringAndRunsWhatItWasSentOnceThawed() throws Exception {
        try (Jedis client = RedisProcesses.jedis(redis.port(), 300)) {
            client.ping();
            redis.pause();
            try {
                JedisConnectionException timedOut =
                        assertThrows(JedisConnectionException.class, () -> client.eval(INCR, 1, "sent-while-frozen"));
                assertTrue(causedBy(timedOut, SocketTimeoutException.class), "hung, not refused: " + timedOut);
                JedisConnectionException newClient = assertThrows(JedisConnectionException.class, () -> ping(300));
                assertTrue(
                        causedBy(newClient, SocketTimeoutException.class), "a new connection hangs too: " + newClient);
            } finally {
                redis.resume();
            }
        }
        try (Jedis j = redis.admin()) {
            assertEquals("1", j.get("sent-while-frozen"), "the script sent while frozen ran after the thaw");
        }
    }

    @Test
    void resumeWithoutPauseAndKillOfAFrozenServerAreHarmless() throws Exception {
        redis.resume();
        assertEquals("PONG", ping(2000));
        redis.pause();
        redis.kill();
        assertThrows(JedisConnectionException.class, () -> ping(2000));
        redis.restart();
        assertEquals("PONG", ping(2000));
    }

    @Test
    void sharedServerComesToTheNextClassRunningThawedAndEmpty() throws Exception {
        String sha;
        try (Jedis j = redis.admin()) {
            j.set("left-behind", "1");
            sha = j.scriptLoad(INCR);
        }
        redis.pause();
        redis.claim();
        try (Jedis j = redis.admin()) {
            assertEquals(0, j.dbSize(), "no key");
            assertFalse(j.scriptExists(sha), "no script");
            assertFalse(j.info("commandstats").contains("cmdstat_set:"), "statistics reset");
        }
        redis.kill();
        redis.claim();
        assertEquals("PONG", ping(2000), "a killed shared server is started again");
    }

    private static String ping(int timeoutMillis) {
        try (Jedis j = RedisProcesses.jedis(redis.port(), timeoutMillis)) {
            return j.ping();
        }
    }

    /** Whether {@code t}, its causes or what they suppressed (Jedis keeps each failed address's) is a {@code type}. */
    private static boolean causedBy(Throwable t, Class<? extends Throwable> type) {
        if (t == null) {
            return false;
        }
        if (type.isInstance(t) || causedBy(t.getCause(), type)) {
            return true;
        }
        for (Throwable s : t.getSuppressed()) {
            if (causedBy(s, type)) {
                return true;
            }
        }
        return false;
    }
}
