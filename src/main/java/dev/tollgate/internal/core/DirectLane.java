package dev.tollgate.internal.core;

import java.util.concurrent.Callable;

/**
 * Runs a store call on the caller's own thread when nothing in it can wait past the budget (for Redis:
 * an idle pooled connection, its read bounded by a socket timeout of what is left of the budget), so
 * a call pays no hand-off to another thread. When that cannot be promised (a connection would have to
 * be made, which may resolve a host name) {@link #lease} says {@link Busy}, and the guard hands the
 * call to a worker, which frees the caller at the budget whatever the call does.
 */
public interface DirectLane {

    /**
     * A connection for one call on this thread, usable until {@code budgetNanos} from now.
     *
     * @throws Busy when no connection can be had at once without making one
     * @throws StoreSaturatedException when every connection stayed busy for the whole budget
     */
    Lease lease(long budgetNanos) throws Busy;

    /** One call's connection; closing it gives the connection back. */
    interface Lease extends AutoCloseable {

        /** Runs {@code call} on this thread, its store commands on the leased connection. */
        <T> T run(Callable<T> call) throws Exception;

        /** Whether every connection was taken and this lease waited for one (its budget is partly spent). */
        default boolean waited() {
            return false;
        }

        @Override
        void close();
    }

    /** No lane: every call goes to the workers. */
    DirectLane NONE = budgetNanos -> {
        throw Busy.INSTANCE;
    };

    /** No connection could be had at once: nothing happened, the caller may run the call elsewhere. */
    final class Busy extends Exception {

        private static final long serialVersionUID = 1L;

        /** Without a stack trace: a signal, not an error. */
        public static final Busy INSTANCE = new Busy();

        private Busy() {
            super("no idle connection for the caller's thread", null, false, false);
        }
    }
}
