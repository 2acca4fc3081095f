package dev.tollgate.config;

import dev.tollgate.ratelimit.LimitSpec;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * Everything Tollgate reads from configuration, validated. Built by {@link SettingsReader}.
 *
 * @param redisUrl where the shared state lives; empty: an in-process store, limits per server
 * @param budget the most one check may wait for Redis, all waits together
 * @param poolSize the most Redis connections one server opens
 * @param failOpen the degraded decision for limits that do not set their own
 * @param limits the configured limits by name
 * @param http the JAX-RS filter's settings
 */
public record TollgateSettings(
        Optional<String> redisUrl,
        Duration budget,
        int poolSize,
        boolean failOpen,
        Map<String, LimitSpec> limits,
        HttpSettings http) {

    public TollgateSettings {
        limits = Map.copyOf(limits);
    }

    public Optional<LimitSpec> limit(String name) {
        return Optional.ofNullable(limits.get(name));
    }
}
