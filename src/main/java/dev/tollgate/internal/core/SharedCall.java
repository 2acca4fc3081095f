package dev.tollgate.internal.core;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.function.Supplier;

/**
 * One computation shared by the callers that overlap it: a caller that arrives while one runs waits for
 * its answer (or its exception) instead of starting another; the next caller after it finished starts a
 * fresh one. So overlapping reads cost what one read costs, and none is older than the call it joined.
 */
public final class SharedCall<T> {

    private final Supplier<T> computation;
    private CompletableFuture<T> running; // guarded by this

    public SharedCall(Supplier<T> computation) {
        this.computation = computation;
    }

    /** The computation's answer: the one running now, or a new one run on this thread. */
    public T get() {
        CompletableFuture<T> mine;
        CompletableFuture<T> joined;
        synchronized (this) {
            joined = running;
            mine = joined == null ? new CompletableFuture<>() : null;
            if (mine != null) {
                running = mine;
            }
        }
        return joined != null ? join(joined) : run(mine);
    }

    private T run(CompletableFuture<T> mine) {
        try {
            T value = computation.get();
            mine.complete(value);
            return value;
        } catch (RuntimeException | Error e) {
            mine.completeExceptionally(e);
            throw e;
        } finally {
            synchronized (this) {
                running = null;
            }
        }
    }

    private static <T> T join(CompletableFuture<T> joined) {
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    return joined.get();
                } catch (InterruptedException e) {
                    interrupted = true; // the answer comes within the computation's own budget
                } catch (ExecutionException e) {
                    if (e.getCause() instanceof RuntimeException r) {
                        throw r;
                    }
                    throw (Error) e.getCause();
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
