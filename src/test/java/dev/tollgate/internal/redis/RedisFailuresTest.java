package dev.tollgate.internal.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.tollgate.DegradedCause;
import dev.tollgate.testing.RedisServer;
import dev.tollgate.testing.Timeouts;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import redis.clients.jedis.Jedis;

/** What each reply means for the breaker: read from real Redis replies, and from the codes Redis documents. */
class RedisFailuresTest {

    @RegisterExtension
    static final RedisServer redis = RedisServer.shared();

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "WRONGTYPE Operation against a key holding the wrong kind of value script: 1f, on @user_script:1.|DATA_ERROR",
                "TOLLGATE_ARGS token-bucket: bad arguments 5 1 1000 6|DATA_ERROR",
                "ERR user_script:3: attempt to compare nil with number script: 1f|DATA_ERROR",
                "OOM command not allowed when used memory > 'maxmemory'. script: 1f, on @user_script:1.|REFUSED",
                "ERR Error running script (call to f_1f): @user_script:5: -OOM command not allowed|REFUSED",
                "BUSY Redis is busy running a script.|REFUSED",
                "LOADING Redis is loading the dataset in memory|REFUSED",
                "READONLY You can't write against a read only replica.|REFUSED",
                "MISCONF Redis is configured to save RDB snapshots, but it's currently unable to persist|REFUSED",
                "CLUSTERDOWN The cluster is down|REFUSED",
                "NOPERM this user has no permissions to run the 'evalsha' command|AUTH",
                "ERR The user executing the script can't run this command or subcommand script: 1f|AUTH",
                "NOAUTH Authentication required.|AUTH",
            })
    void repliesByCode(String reply, DegradedCause cause) {
        assertEquals(cause, RedisFailures.ofReply(reply));
    }

    @Test
    void aRealWrongTypeReplyIsADataErrorAndARefusedConnectionIsNot() throws Exception {
        try (Jedis j = redis.admin()) {
            j.set("failures:string", "x");
        }
        try (RedisLink link = RedisClients.create(RedisSettings.of(redis.url(), Timeouts.GENEROUS, 1))) {
            RuntimeException e = assertThrows(
                    RuntimeException.class,
                    () -> link.eval(LuaScript.named("counter"), List.of("failures:string"), List.of("1", "60000")));
            assertEquals(DegradedCause.DATA_ERROR, RedisFailures.classify(e), e.toString());
        }
        try (RedisLink nowhere =
                RedisClients.create(RedisSettings.of("redis://127.0.0.1:" + closedPort(), Timeouts.GENEROUS, 1))) {
            RuntimeException e = assertThrows(RuntimeException.class, nowhere::ping);
            assertEquals(DegradedCause.REFUSED, RedisFailures.classify(e), e.toString());
        }
        assertEquals(
                DegradedCause.DATA_ERROR, RedisFailures.classify(new ClassCastException("a reply of another shape")));
    }

    /**
     * What leaves the seam is a {@link RedisException} around the client's failure: it means what that
     * failure means, for the breaker, for a script's refusal and for a caller that retries a connection.
     */
    @Test
    void aFailureLeavingTheSeamMeansWhatItsCauseMeans() {
        List<redis.clients.jedis.exceptions.JedisException> failures = List.of(
                new redis.clients.jedis.exceptions.JedisDataException("WRONGTYPE Operation against a key"),
                new redis.clients.jedis.exceptions.JedisDataException("TOLLGATE_ARGS token-bucket: bad arguments"),
                new redis.clients.jedis.exceptions.JedisDataException("BUSY Redis is busy running a script."),
                new redis.clients.jedis.exceptions.JedisAccessControlException("WRONGPASS invalid password"),
                new redis.clients.jedis.exceptions.JedisConnectionException("refused"),
                new redis.clients.jedis.exceptions.JedisConnectionException(
                        new java.net.SocketTimeoutException("Read timed out")));
        List<DegradedCause> causes = List.of(
                DegradedCause.DATA_ERROR,
                DegradedCause.DATA_ERROR,
                DegradedCause.REFUSED,
                DegradedCause.AUTH,
                DegradedCause.REFUSED,
                DegradedCause.TIMEOUT);
        for (int i = 0; i < failures.size(); i++) {
            redis.clients.jedis.exceptions.JedisException cause = failures.get(i);
            RedisException left = new RedisException(cause);
            assertEquals(causes.get(i), RedisFailures.classify(left), cause.toString());
            assertEquals(i == 1, RedisFailures.argumentsRefused(left), cause.toString());
            assertEquals(i >= 4, left.connectionFailed(), cause.toString());
            assertEquals(cause.getMessage(), left.getMessage());
        }
    }

    @Test
    void aConnectionThatCannotBeMadeWithinTheBudgetIsATimeoutNotARefusal() throws Exception {
        // A listener that never accepts, its queue full: the kernel drops further handshakes, so a connect
        // hangs until its timeout, as on a Redis stopped behind a full backlog or a frozen link.
        try (java.net.ServerSocket full = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            List<java.net.Socket> queued = new java.util.ArrayList<>();
            try {
                for (int i = 0; i < 8; i++) {
                    java.net.Socket s = new java.net.Socket();
                    try {
                        s.connect(full.getLocalSocketAddress(), 100);
                        queued.add(s);
                    } catch (java.net.SocketTimeoutException queueFull) {
                        s.close();
                        break;
                    }
                }
                try (RedisLink hung = RedisClients.create(RedisSettings.of(
                        "redis://127.0.0.1:" + full.getLocalPort(), java.time.Duration.ofMillis(250), 1))) {
                    RuntimeException e = assertThrows(RuntimeException.class, hung::ping);
                    assertEquals(DegradedCause.TIMEOUT, RedisFailures.classify(e), describe(e));
                }
            } finally {
                for (java.net.Socket s : queued) {
                    s.close();
                }
            }
        }
    }

    private static String describe(Throwable e) {
        java.io.StringWriter w = new java.io.StringWriter();
        e.printStackTrace(new java.io.PrintWriter(w));
        return w.toString();
    }

    private static int closedPort() throws java.io.IOException {
        try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
