package dev.tollgate.experiments.bench;

import dev.tollgate.Decision;
import dev.tollgate.cdi.FaultTolerantRedisCaller;
import dev.tollgate.cdi.MicroProfileBreaker;
import dev.tollgate.internal.config.PropertySource;
import dev.tollgate.internal.config.SettingsReader;
import dev.tollgate.internal.config.TollgateSettings;
import dev.tollgate.internal.engine.Engine;
import dev.tollgate.internal.redis.RedisLink;
import java.util.HashMap;
import java.util.Map;
import org.jboss.weld.environment.se.Weld;
import org.jboss.weld.environment.se.WeldContainer;

/**
 * The check every request pays: {@link Tollgate#check} through the guard, built by the composition root
 * with MicroProfile Fault Tolerance's breaker and timeout, as {@code TollgateRuntime} builds it in a
 * server. Fault Tolerance is SmallRye's, in a Weld SE container holding {@link FaultTolerantRedisCaller}
 * (its interceptors are what a server runs); the Redis client is the Tollgate's own, so the raw
 * commands compared with it run on the same pool.
 */
final class Guarded implements AutoCloseable {

    static final String LIMIT = "bench";

    /**
     * The system property of a budget other than the default ({@code experiments/run bench --budget 2s}):
     * unset, the guarded check runs with the budget users run, 250 ms.
     */
    static final String BUDGET_PROPERTY = "tollgate.bench.budget";

    // Held, so the levels stick: Weld's and Tollgate's start-up lines in every fork are noise here.
    private static final java.util.logging.Logger[] QUIET = {
        java.util.logging.Logger.getLogger("org.jboss.weld"), java.util.logging.Logger.getLogger("dev.tollgate")
    };

    static {
        for (java.util.logging.Logger l : QUIET) {
            l.setLevel(java.util.logging.Level.WARNING);
        }
    }

    private final WeldContainer weld;
    private final Engine tollgate;

    Guarded(String url, int poolSize) {
        weld = new Weld("tollgate-bench")
                .disableDiscovery()
                .addBeanClass(FaultTolerantRedisCaller.class)
                .initialize();
        FaultTolerantRedisCaller ft =
                weld.select(FaultTolerantRedisCaller.class).get();
        Map<String, String> p = new HashMap<>(Map.of(
                "tollgate.redis.url",
                url,
                "tollgate.redis.pool-size",
                Integer.toString(poolSize),
                "tollgate.limits." + LIMIT + ".capacity",
                Long.toString(Checks.CAPACITY),
                "tollgate.limits." + LIMIT + ".refill-tokens",
                Long.toString(Checks.CAPACITY),
                "tollgate.limits." + LIMIT + ".refill-period",
                "1s"));
        // Only when asked: a figure that needs a longer budget is not the figure users get. On 2 shared
        // vCPUs a burst of load elsewhere can hold one check past 250 ms, and its degraded decision fails
        // the run (it measured nothing); the report names the budget either way.
        String budget = System.getProperty(BUDGET_PROPERTY);
        if (budget != null) {
            p.put("tollgate.redis.timeout", budget);
        }
        TollgateSettings settings = SettingsReader.read(PropertySource.of(p));
        tollgate = Engine.builder(settings)
                .breaker(() -> new MicroProfileBreaker(ft))
                .build();
    }

    RedisLink link() {
        return tollgate.redis().orElseThrow();
    }

    /** One guarded check; a degraded decision (the guard did not get Redis's answer) fails the benchmark. */
    boolean check(String clientKey) {
        Decision d = tollgate.check(LIMIT, clientKey);
        if (d.degraded()) {
            throw new IllegalStateException("a degraded decision: the guarded check did not get Redis's answer"
                    + " within its budget (a loaded machine: run again, or name a longer one with --budget)");
        }
        return d.allowed();
    }

    @Override
    public void close() {
        tollgate.close();
        weld.shutdown();
    }
}
