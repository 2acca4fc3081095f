package dev.tollgate.internal.guard;

import dev.tollgate.internal.core.Guard;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * One {@link RedisGuard} per server that owns keys (a Redis Cluster's masters), each with its own
 * breaker and probe. A dead master degrades the decisions on its own keys only: with one breaker for
 * all, a few failures in a row on its keys would stop every master's decisions too.
 */
public final class ShardedGuard implements Guard, BreakerState, AutoCloseable {

    private final Function<String, String> serverOf;
    private final Function<String, RedisGuard> guardFor;
    private final Map<String, RedisGuard> guards = new ConcurrentHashMap<>();

    /**
     * @param serverOf the server that owns a store key (throws when the topology is not known yet)
     * @param guardFor a guard for one server, whose probe asks that server
     */
    public ShardedGuard(Function<String, String> serverOf, Function<String, RedisGuard> guardFor) {
        this.serverOf = serverOf;
        this.guardFor = guardFor;
    }

    /** The server a key belongs to, or {@code "?"} while the topology cannot be learned. */
    private String server(String storeKey) {
        try {
            return serverOf.apply(storeKey);
        } catch (RuntimeException unknown) {
            return "?";
        }
    }

    @Override
    public <T> T call(String storeKey, Callable<T> call) {
        return guards.computeIfAbsent(server(storeKey), guardFor).call(storeKey, call);
    }

    @Override
    public boolean isOpen() {
        return guards.values().stream().anyMatch(RedisGuard::isOpen);
    }

    /** Whether the guard of the server that owns {@code storeKey} is open. */
    @Override
    public boolean isOpen(String storeKey) {
        RedisGuard g = guards.get(server(storeKey));
        return g != null && g.isOpen();
    }

    @Override
    public Optional<String> authFailure() {
        return guards.values().stream()
                .map(RedisGuard::authFailure)
                .flatMap(Optional::stream)
                .findFirst();
    }

    @Override
    public long probesSent() {
        return guards.values().stream().mapToLong(RedisGuard::probesSent).sum();
    }

    @Override
    public void close() {
        guards.values().forEach(RedisGuard::close);
    }
}
