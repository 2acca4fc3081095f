package dev.tollgate.internal.config;

import dev.tollgate.internal.ratelimit.Algorithm;
import dev.tollgate.internal.ratelimit.LimitMode;
import java.util.Optional;

/** How a limit operates beyond its policy: its mode, its shadow candidate, its local fallback. */
final class LimitModes {

    /** Settings a candidate may give ({@code tollgate.limits.<name>.shadow.<setting>}): its policy, not whose or how. */
    static final java.util.Set<String> CANDIDATE_SETTINGS = Setting.names(Setting.Scope.CANDIDATE);

    private LimitModes() {}

    /**
     * The global defaults.
     *
     * @param mode {@code tollgate.mode}
     * @param localFallback {@code tollgate.local-fallback}
     * @param servers {@code tollgate.local-fallback-servers}: how many servers share a limit's capacity
     *     while each decides alone; {@link TollgateSettings#LIVE_SERVERS} ({@code auto}): the live count
     */
    record Defaults(LimitMode mode, boolean localFallback, int servers) {}

    /**
     * The settings as a candidate of {@code limit} reads them: its own ({@code ....shadow.<setting>}),
     * else the limit's when both count by the same algorithm.
     */
    static PropertySource candidateView(PropertySource source, String limit) {
        String own = SettingsReader.LIMITS + limit + "." + SettingsReader.SHADOW;
        String primary = SettingsReader.LIMITS + limit + ".";
        Optional<String> algorithm = source.get(own + "algorithm").map(String::trim);
        boolean same = algorithm.isEmpty()
                || algorithm
                        .get()
                        .equalsIgnoreCase(source.get(primary + "algorithm")
                                .map(String::trim)
                                .orElse(Algorithm.TOKEN_BUCKET.configName()));
        return new PropertySource() {
            @Override
            public Optional<String> get(String name) {
                Optional<String> value = source.get(name);
                if (value.isPresent() || !same || !name.startsWith(own)) {
                    return value;
                }
                return source.get(primary + name.substring(own.length()));
            }

            @Override
            public Iterable<String> names() {
                return source.names();
            }
        };
    }
}
