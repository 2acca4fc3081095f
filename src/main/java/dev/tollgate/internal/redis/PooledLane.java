package dev.tollgate.internal.redis;

import dev.tollgate.internal.core.DirectLane;
import dev.tollgate.internal.core.StoreSaturatedException;
import java.time.Duration;
import java.util.NoSuchElementException;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import redis.clients.jedis.Connection;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.util.Pool;

/**
 * {@link RedisLink}'s lane for one server: a call runs on the caller's thread on a pooled connection
 * whose socket timeout is what is left of the budget, so neither the read nor the wait for a
 * connection can outlast it. Only a connection already made is used: when none is idle and the pool
 * may still grow, making one (which may resolve a host name, not bounded by any timeout) is left to a
 * worker ({@link DirectLane.Busy}). When the pool is full, the caller waits for a connection, at most
 * the budget, and a pool that stays full is {@link StoreSaturatedException}: load, not an outage.
 */
final class PooledLane implements DirectLane {

    private final RedisLink link;

    PooledLane(RedisLink link) {
        this.link = link;
    }

    @Override
    public Lease lease(long budgetNanos) throws Busy {
        long start = System.nanoTime();
        Pool<Connection> pool = link.builtPool();
        if (pool == null) {
            throw Busy.INSTANCE;
        }
        // The idle count is read once: each read takes the pool's lock, which every borrow and return takes.
        boolean idle = pool.getNumIdle() > 0;
        boolean full = !idle && pool.getNumActive() >= pool.getMaxTotal();
        Connection c = borrow(pool, idle, full, budgetNanos);
        int defaultTimeout = c.getSoTimeout();
        long leftMillis = TimeUnit.NANOSECONDS.toMillis(budgetNanos - (System.nanoTime() - start));
        int timeout = (int) Math.max(1, Math.min(defaultTimeout, leftMillis));
        // Mostly the default (90% of the budget, less than what is left after an idle borrow): then no
        // system call. Shorter only after waiting for a connection of a full pool.
        if (timeout != defaultTimeout) {
            try {
                c.setSoTimeout(timeout);
            } catch (JedisConnectionException broken) {
                pool.returnBrokenResource(c);
                throw Busy.INSTANCE;
            }
        }
        return new Leased(pool, c, defaultTimeout, timeout != defaultTimeout, full, start + budgetNanos);
    }

    /**
     * The one retry of a call whose leased connection broke ({@link RedisLink}), on a fresh connection and
     * within what is left of the call's budget: a full pool is waited for until {@code deadlineNanos} at
     * most, and the read is bounded by what is left then. Without a connection in time, the call fails
     * with {@code failure}.
     */
    <T> T retryWithin(long deadlineNanos, JedisConnectionException failure, Function<Connection, T> call) {
        long start = System.nanoTime();
        Pool<Connection> pool = link.builtPool();
        Connection c;
        try {
            c = pool.borrowObject(Duration.ofNanos(Math.max(0, deadlineNanos - start)));
        } catch (JedisConnectionException unmade) {
            // The fresh connection could not be made (a connect that timed out, refused): that is what
            // decides the call's cause now, not the broken connection before it.
            unmade.addSuppressed(failure);
            throw unmade;
        } catch (Exception noneInTime) {
            throw failure;
        }
        int defaultTimeout = c.getSoTimeout();
        long leftMillis = TimeUnit.NANOSECONDS.toMillis(deadlineNanos - System.nanoTime());
        int timeout = (int) Math.min(defaultTimeout, leftMillis);
        try (Leased fresh = new Leased(pool, c, defaultTimeout, timeout != defaultTimeout, false, deadlineNanos)) {
            if (timeout < 1) {
                throw failure;
            }
            if (timeout != defaultTimeout) {
                c.setSoTimeout(timeout);
            }
            return call.apply(c);
        }
    }

    private static Connection borrow(Pool<Connection> pool, boolean idle, boolean full, long budgetNanos) throws Busy {
        try {
            if (idle) {
                return pool.borrowObject(Duration.ZERO);
            }
            if (!full) {
                throw Busy.INSTANCE;
            }
            return waitFor(pool, budgetNanos);
        } catch (Busy | StoreSaturatedException e) {
            throw e;
        } catch (Exception takenMeanwhileOrUnmade) {
            throw Busy.INSTANCE;
        }
    }

    private static Connection waitFor(Pool<Connection> pool, long budgetNanos) throws Exception {
        try {
            return pool.borrowObject(Duration.ofNanos(budgetNanos));
        } catch (NoSuchElementException full) {
            throw new StoreSaturatedException(
                    "every Redis connection stayed busy for the whole budget (tollgate.redis.pool-size)", full);
        }
    }

    /** A borrowed connection, given back with its own socket timeout (or dropped when broken). */
    private final class Leased implements Lease {
        private final Pool<Connection> pool;
        private final Connection connection;
        private final int defaultTimeout;
        private final boolean shortened;
        private final boolean waited;
        private final long deadlineNanos;

        Leased(
                Pool<Connection> pool,
                Connection connection,
                int defaultTimeout,
                boolean shortened,
                boolean waited,
                long deadlineNanos) {
            this.pool = pool;
            this.connection = connection;
            this.defaultTimeout = defaultTimeout;
            this.shortened = shortened;
            this.waited = waited;
            this.deadlineNanos = deadlineNanos;
        }

        @Override
        public boolean waited() {
            return waited;
        }

        @Override
        public <T> T run(Callable<T> call) throws Exception {
            return link.pinned(connection, PooledLane.this, deadlineNanos, call);
        }

        @Override
        public void close() {
            if (shortened && !connection.isBroken()) {
                try {
                    connection.setSoTimeout(defaultTimeout);
                } catch (JedisConnectionException broken) {
                    // Dropped below.
                }
            }
            if (connection.isBroken()) {
                pool.returnBrokenResource(connection);
            } else {
                pool.returnResource(connection);
            }
        }
    }
}
