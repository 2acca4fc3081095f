package dev.tollgate.internal.redis;

import dev.tollgate.DegradedCause;
import java.io.IOException;
import java.util.List;
import java.util.NoSuchElementException;
import redis.clients.jedis.exceptions.JedisAccessControlException;
import redis.clients.jedis.exceptions.JedisDataException;
import redis.clients.jedis.exceptions.JedisException;
import redis.clients.jedis.exceptions.JedisRedirectionException;

/**
 * Why a Redis call failed, read from what the client threw: the one place that knows Redis's error
 * replies. Only "Redis did not answer, refused the connection or cannot write" is an outage (it counts
 * toward the breaker); an error Redis gave about this key or this call ({@code WRONGTYPE}, a script's
 * error, a reply Tollgate cannot read) is {@link DegradedCause#DATA_ERROR}, and refused credentials or
 * permissions are {@link DegradedCause#AUTH}.
 */
public final class RedisFailures {

    /**
     * The error code with which every Tollgate script refuses its arguments ({@code TOLLGATE_ARGS
     * sliding-window: bad arguments ...}): Java checks every call against the same rules before Redis
     * is asked ({@code dev.tollgate.internal.ratelimit.Algorithm}), so such a reply can only mean a bug. Written in
     * each script's {@code redis.error_reply}; {@code ScriptLimitsAgreementTest} checks that every one
     * uses it.
     */
    public static final String ARGUMENTS_REFUSED = "TOLLGATE_ARGS";

    /** Error codes with which Redis says it cannot serve any call now, whichever key it is on. */
    private static final List<String> CANNOT_SERVE = List.of(
            "OOM", "BUSY", "LOADING", "READONLY", "MASTERDOWN", "CLUSTERDOWN", "TRYAGAIN", "MISCONF", "NOREPLICAS");

    private static final List<String> REFUSED_CREDENTIALS = List.of("NOAUTH", "WRONGPASS", "NOPERM");

    private RedisFailures() {}

    /** The cause of {@code failure}: the first Redis client error or I/O error in its chain decides. */
    public static DegradedCause classify(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof JedisAccessControlException) {
                return DegradedCause.AUTH; // wherever it is: a pool may wrap the handshake's refusal
            }
            if (t instanceof NoSuchElementException || t instanceof InterruptedException) {
                // Waiting for a pooled connection: none freed up in time ("Timeout waiting for idle object"),
                // or the caller gave up meanwhile and interrupted the worker. This server's load, not Redis.
                return DegradedCause.SATURATED;
            }
        }
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof JedisRedirectionException) {
                return DegradedCause.REFUSED; // a cluster's topology that the client could not follow
            }
            if (t instanceof JedisDataException reply) {
                return ofReply(reply.getMessage());
            }
            if (t instanceof JedisException || t instanceof IOException) {
                return RedisLink.timedOut(t) ? DegradedCause.TIMEOUT : DegradedCause.REFUSED;
            }
        }
        return DegradedCause.DATA_ERROR; // a reply this call could not read: the call's problem, not Redis's
    }

    /**
     * Whether {@code failure} is a Tollgate script refusing the arguments it was sent ({@link
     * #ARGUMENTS_REFUSED}): a bug, never the caller's doing nor Redis's. Its cause stays a data error.
     */
    public static boolean argumentsRefused(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof JedisDataException reply
                    && reply.getMessage() != null
                    && reply.getMessage().startsWith(ARGUMENTS_REFUSED + " ")) {
                return true;
            }
        }
        return false;
    }

    /** An error reply's cause, by its code ({@code WRONGTYPE Operation against ...}). */
    static DegradedCause ofReply(String message) {
        String m = message == null ? "" : message;
        if (REFUSED_CREDENTIALS.stream().anyMatch(m::startsWith)
                || m.contains("can't run this command")) { // a script's command the ACL forbids
            return DegradedCause.AUTH;
        }
        if (CANNOT_SERVE.stream().anyMatch(code -> m.startsWith(code + " ") || m.contains("-" + code + " "))) {
            return DegradedCause.REFUSED;
        }
        return DegradedCause.DATA_ERROR;
    }
}
