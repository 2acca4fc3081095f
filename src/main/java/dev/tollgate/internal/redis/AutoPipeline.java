package dev.tollgate.internal.redis;

import java.net.SocketTimeoutException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import redis.clients.jedis.CommandObject;
import redis.clients.jedis.Connection;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.exceptions.JedisDataException;

/**
 * Scripts that request threads run at the same time, sent to one server in one write (automatic
 * pipelining, by flat combining). A caller whose command finds no other writing sends it on its own
 * leased connection and reads the reply, as without pipelining; one that finds another thread writing
 * queues its command and waits. When the writer is done it wakes the oldest waiting caller, which sends
 * every queued command in one write on its own connection and reads every reply, then hands each its
 * own. So a lone caller pays what one command costs, and many callers pay one write and one read per
 * batch instead of one each: Redis and the client make fewer system calls per check, which is what a
 * loaded server runs out of first.
 *
 * <p>Nothing waits past its budget: a queued caller leaves at its own deadline, whether its command was
 * sent or not (its reply, if it comes, is dropped), with a read time-out ({@link SocketTimeoutException}),
 * as if its own read had timed out; the writer reads no later than its own deadline either, except that
 * a writer that woke after it still takes, within {@link #LATE_READ_NANOS}, the replies already there. A reply
 * that is an error goes to its own caller only; a connection that breaks fails every command of its
 * batch with the same exception, and each caller handles it as if its own connection broke (one retry
 * on a fresh connection within its budget, {@link RedisLink}).
 */
final class AutoPipeline {

    /** Most commands sent in one write: a batch is one read of replies for each, with a deadline check between them. */
    private static final int MAX_BATCH = 64;

    /**
     * How long past its deadline a writer still reads replies that have already arrived (each read then
     * waits 1 ms at most): a writer that woke late takes them rather than failing its batch.
     */
    private static final long LATE_READ_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

    /** Longest a waiting caller sleeps before looking again (a safety net: every change wakes it anyway). */
    private static final long SLICE_NANOS = TimeUnit.MILLISECONDS.toNanos(5);

    private static final int QUEUED = 0;
    private static final int SENT = 1;
    private static final int DONE = 2;
    private static final int ABANDONED = 3;

    private final ConcurrentLinkedQueue<Call<?>> queue = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean writing = new AtomicBoolean();
    /** Commands sent in a write that carried more than one: what pipelining saved a write for. */
    private final java.util.concurrent.atomic.LongAdder sentTogether = new java.util.concurrent.atomic.LongAdder();

    /** One caller's command, its state and its outcome. */
    private static final class Call<T> {
        final CommandObject<T> command;
        final Thread caller = Thread.currentThread();
        final AtomicInteger state = new AtomicInteger(QUEUED);
        Object reply; // written before DONE, read after
        RuntimeException failure;

        Call(CommandObject<T> command) {
            this.command = command;
        }

        T outcome() {
            if (failure != null) {
                throw failure;
            }
            return command.getBuilder().build(reply);
        }

        void finish(Object reply, RuntimeException failure) {
            this.reply = reply;
            this.failure = failure;
            if (state.compareAndSet(SENT, DONE)) {
                LockSupport.unpark(caller);
            }
        }
    }

    /**
     * Runs {@code command} on {@code own} (the caller's leased connection) or in another caller's
     * batch, whichever comes first, returning no later than {@code deadlineNanos}.
     */
    <T> T run(Connection own, CommandObject<T> command, long deadlineNanos) {
        if (queue.isEmpty() && writing.compareAndSet(false, true)) {
            try {
                return own.executeCommand(command);
            } finally {
                release();
            }
        }
        Call<T> call = new Call<>(command);
        queue.add(call);
        // An interrupt does not end the wait (a socket read ignores it too, and the budget bounds it); it
        // is kept for the caller, and the wait parks as before instead of spinning on it.
        boolean interrupted = false;
        try {
            for (; ; ) {
                int state = call.state.get();
                if (state == DONE) {
                    return call.outcome();
                }
                long left = deadlineNanos - System.nanoTime();
                if (left <= 0) {
                    if (call.state.compareAndSet(state, ABANDONED)) {
                        throw timedOut(state == QUEUED ? "waited to be sent" : "waited for its reply");
                    }
                    continue;
                }
                if (state == QUEUED && writing.compareAndSet(false, true)) {
                    try {
                        writeBatch(own, deadlineNanos);
                    } finally {
                        release();
                    }
                    continue;
                }
                LockSupport.parkNanos(this, Math.min(left, SLICE_NANOS));
                interrupted |= Thread.interrupted();
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Stops writing, and wakes the oldest caller still waiting to be sent, to write the next batch. */
    private void release() {
        writing.set(false);
        for (Call<?> head; (head = queue.peek()) != null; ) {
            if (head.state.get() == QUEUED) {
                LockSupport.unpark(head.caller);
                return;
            }
            queue.remove(head); // abandoned before it was sent
        }
    }

    private void writeBatch(Connection own, long deadlineNanos) {
        List<Call<?>> batch = new ArrayList<>();
        for (Call<?> c; batch.size() < MAX_BATCH && (c = queue.poll()) != null; ) {
            if (c.state.compareAndSet(QUEUED, SENT)) {
                batch.add(c);
            }
        }
        if (batch.size() > 1) {
            sentTogether.add(batch.size());
        }
        int i = 0;
        int defaultTimeout = own.getSoTimeout();
        int timeout = defaultTimeout;
        try {
            for (Call<?> c : batch) {
                own.sendCommand(c.command.getArguments());
            }
            for (; i < batch.size(); i++) {
                // Read no later than this writer's own deadline, even when it took over the writing late
                // or the replies trickle in (mostly the socket timeout the lease lent is shorter: no call).
                long overNanos = System.nanoTime() - deadlineNanos;
                long leftMillis = TimeUnit.NANOSECONDS.toMillis(-overNanos);
                if (leftMillis < 1) {
                    if (overNanos > LATE_READ_NANOS) {
                        own.setBroken(); // replies are still owed on it: never reuse it
                        throw timedOut("waited for its reply");
                    }
                    // Woken late (this server's CPU, not Redis): a reply already here is taken, none waited for.
                    leftMillis = 1;
                }
                if (leftMillis < timeout) {
                    timeout = (int) leftMillis;
                    own.setSoTimeout(timeout);
                }
                Object reply;
                try {
                    reply = own.getOne();
                } catch (JedisConnectionException e) {
                    throw e;
                } catch (JedisDataException answered) {
                    batch.get(i).finish(null, answered);
                    continue;
                }
                batch.get(i).finish(reply, null);
            }
        } catch (RuntimeException broken) {
            for (; i < batch.size(); i++) {
                batch.get(i).finish(null, broken);
            }
        } finally {
            if (timeout != defaultTimeout && !own.isBroken()) {
                try {
                    own.setSoTimeout(defaultTimeout); // the lease gives it back with the timeout it lent it with
                } catch (JedisConnectionException broken) {
                    // Broken now: the lease drops it.
                }
            }
        }
    }

    /** How many commands were sent in a write that carried more than one, so far. */
    long sentTogether() {
        return sentTogether.sum();
    }

    private static JedisConnectionException timedOut(String what) {
        return new JedisConnectionException(new SocketTimeoutException(
                "Read timed out (a pipelined command " + what + " past the budget, tollgate.redis.timeout)"));
    }
}
