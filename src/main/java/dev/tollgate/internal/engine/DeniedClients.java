package dev.tollgate.internal.engine;

import dev.tollgate.Decision;
import dev.tollgate.internal.ratelimit.Charged;
import dev.tollgate.internal.ratelimit.DecisionListener;
import dev.tollgate.internal.ratelimit.LimitSpec;
import dev.tollgate.internal.ratelimit.StoreKeys;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;

/**
 * The clients this server denied most in the last {@value #PERIOD_MINUTES} to {@code 2 ×} that many
 * minutes, per limit, for the console: in memory only, at most {@value #TRACKED} clients per period
 * (Space-Saving: a new client takes the place of the least denied one and starts from its count, so a
 * client denied often is never missed). An enforced limit's denials of calls admitted through {@code
 * @RateLimited} and the HTTP filter are counted (not a shadow limit's, not a degraded one's, not {@code
 * RateLimits.check}'s, which names no charge); the keys are held as given and only their hashes leave.
 */
final class DeniedClients implements DecisionListener {

    static final int TRACKED = 100;
    static final int SHOWN = 10;
    static final int PERIOD_MINUTES = 5;

    private static final long PERIOD_NANOS = PERIOD_MINUTES * 60_000_000_000L;

    private record Client(String limit, String key) {}

    private final LongSupplier nanoTime;
    private volatile Map<Client, LongAdder> current = new ConcurrentHashMap<>();
    private Map<Client, LongAdder> previous = Map.of(); // guarded by this
    private volatile long periodStart; // written under this

    DeniedClients(LongSupplier nanoTime) {
        this.nanoTime = nanoTime;
        this.periodStart = nanoTime.getAsLong();
    }

    /** Reads no decision's time. */
    @Override
    public boolean timesDecisions() {
        return false;
    }

    @Override
    public void onDecision(LimitSpec limit, Decision decision, long nanos) {}

    @Override
    public void onCharged(Charged charged, long nanos) {
        Decision d = charged.decision();
        LimitSpec limit = charged.charge().limit();
        if (d.allowed() || d.degraded() || limit.shadow()) {
            return;
        }
        Client client = new Client(limit.name(), charged.charge().clientKey());
        LongAdder n = current.get(client);
        if (n != null && nanoTime.getAsLong() - periodStart < PERIOD_NANOS) {
            n.increment();
        } else {
            counted(client);
        }
    }

    /** A client not tracked yet (or the period is over): Space-Saving's replacement. */
    private synchronized void counted(Client client) {
        long now = nanoTime.getAsLong();
        if (now - periodStart >= PERIOD_NANOS) {
            previous = now - periodStart >= 2 * PERIOD_NANOS ? Map.of() : current;
            current = new ConcurrentHashMap<>();
            periodStart = now;
        }
        LongAdder n = current.get(client);
        if (n == null) {
            n = new LongAdder();
            if (current.size() >= TRACKED) {
                Map.Entry<Client, LongAdder> least = current.entrySet().stream()
                        .min(Comparator.comparingLong(e -> e.getValue().sum()))
                        .orElseThrow();
                current.remove(least.getKey());
                n.add(least.getValue().sum());
            }
            current.put(client, n);
        }
        n.increment();
    }

    /** The {@value #SHOWN} most denied, most first, over this period and the last. */
    List<DeniedClient> most() {
        Map<Client, Long> sums = new HashMap<>();
        Map<Client, LongAdder> last;
        synchronized (this) {
            last = previous;
        }
        last.forEach((c, n) -> sums.merge(c, n.sum(), Long::sum));
        current.forEach((c, n) -> sums.merge(c, n.sum(), Long::sum));
        List<DeniedClient> out = new ArrayList<>();
        sums.entrySet().stream()
                .sorted(Map.Entry.<Client, Long>comparingByValue().reversed())
                .limit(SHOWN)
                .forEach(e -> out.add(new DeniedClient(
                        e.getKey().limit(), StoreKeys.clientHash(e.getKey().key()), e.getValue())));
        return out;
    }
}
