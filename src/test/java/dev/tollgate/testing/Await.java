package dev.tollgate.testing;

import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import redis.clients.jedis.Jedis;

/**
 * Waits for observable state instead of sleeping: a condition polled every few milliseconds, bounded by
 * a timeout so generous that only a broken build reaches it.
 */
public final class Await {

    private static final long TIMEOUT_SECONDS = 20;

    private Await() {}

    /** Returns once {@code done} holds; fails after {@value #TIMEOUT_SECONDS} s, naming {@code what}. */
    public static void until(String what, BooleanSupplier done) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(TIMEOUT_SECONDS);
        while (!done.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("waited " + TIMEOUT_SECONDS + " s for " + what);
            }
            try {
                Thread.sleep(2);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted waiting for " + what, e);
            }
        }
    }

    /**
     * Redis's {@code blocked_clients}: clients in a blocking command, and (Redis 7) those whose command a
     * {@code CLIENT PAUSE} holds.
     */
    public static long blockedClients(Jedis admin) {
        for (String line : admin.info("clients").split("\r?\n")) {
            if (line.startsWith("blocked_clients:")) {
                return Long.parseLong(
                        line.substring("blocked_clients:".length()).trim());
            }
        }
        throw new IllegalStateException("no blocked_clients in INFO clients");
    }
}
