package dev.tollgate.internal.config;

import dev.tollgate.CalendarPeriod;
import dev.tollgate.ConfigProblem;
import dev.tollgate.Key;
import dev.tollgate.Limit;
import dev.tollgate.LimitRules;
import dev.tollgate.internal.core.Durations;
import dev.tollgate.internal.ratelimit.Algorithm;
import dev.tollgate.internal.ratelimit.KeyNormalization;
import dev.tollgate.internal.ratelimit.LimitMode;
import dev.tollgate.internal.ratelimit.LimitSpec;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The limits, {@code tollgate.limits.<name>.*}, each read onto {@link Limit}'s builder, whose rules say
 * what is wrong: a limit with any problem is reported and left out.
 */
final class LimitReader {

    private final PropertyValues values;
    private final boolean defaultFailOpen;
    private final LimitModes.Defaults modes;

    private LimitReader(PropertyValues values, boolean defaultFailOpen, LimitModes.Defaults modes) {
        this.values = values;
        this.defaultFailOpen = defaultFailOpen;
        this.modes = modes;
    }

    /** The well-defined limits of {@code names}, of which {@code candidates} have a shadow candidate. */
    static Map<String, LimitSpec> read(
            PropertyValues values,
            Set<String> names,
            Set<String> candidates,
            boolean defaultFailOpen,
            LimitModes.Defaults modes) {
        LimitReader reader = new LimitReader(values, defaultFailOpen, modes);
        Map<String, LimitSpec> limits = new TreeMap<>();
        for (String name : names) {
            reader.limit(name, candidates.contains(name))
                    .ifPresent(limit -> limits.put(name, TypedSpecs.limit(limit, modes.servers())));
        }
        return limits;
    }

    /**
     * The limit {@code tollgate.limits.<name>.*} gives, with its mode, local fallback and shadow candidate,
     * whose settings it does not give are the limit's own when it counts by the same algorithm ({@link
     * LimitModes#candidateView}).
     */
    private Optional<Limit> limit(String name, boolean hasCandidate) {
        String p = SettingsReader.LIMITS + name + ".";
        int before = values.count();
        Set<String> refused = new TreeSet<>();
        Limit.Builder limit = policy(name, p, "", refused);
        values.present(p + "key", Key::parse, Setting.KEY.rule()).ifPresent(limit::key);
        values.present(p + "key-normalize", KeyNormalization::parse, Setting.KEY_NORMALIZE.rule())
                .ifPresent(n -> limit.keyNormalization(n.api()));
        values.present(p + "lease", LimitReader::lease, Setting.LIMIT_LEASE.rule())
                .ifPresent(limit::lease);
        limit.failOpen(values.flag(p + "fail-open", defaultFailOpen))
                .shadow(values.value(p + "mode", modes.mode(), LimitMode::parse, Setting.LIMIT_MODE.rule())
                        == LimitMode.SHADOW)
                .localFallback(values.flag(p + "local-fallback", modes.localFallback()));
        values.present(p + "idempotency-window", Durations::parse, Setting.IDEMPOTENCY_WINDOW.rule())
                .ifPresent(limit::idempotencyWindow);
        values.present(p + "usage-days", LimitRules::parseUsageDays, Setting.USAGE_DAYS.rule())
                .ifPresent(limit::usageDays);
        PropertySource view = hasCandidate ? LimitModes.candidateView(values.source(), name) : values.source();
        values.through(view, () -> {
            if (hasCandidate) {
                limit.candidate(policy(name, p + SettingsReader.SHADOW, SettingsReader.SHADOW, refused));
            }
            values.report(p, limit.problems(), refused);
            return null;
        });
        return values.count() > before ? Optional.empty() : Optional.of(limit.build());
    }

    /** {@code off}, else a duration ({@link LimitRules#checkLease} judges its range). */
    private static java.time.Duration lease(String text) {
        return "off".equalsIgnoreCase(text.trim()) ? LimitRules.NO_LEASE : Durations.parse(text);
    }

    /**
     * The counting settings under {@code p} (a limit's, or its candidate's) on a builder; every value that
     * does not parse is reported and its setting, under {@code shadow}, added to {@code refused}.
     */
    private Limit.Builder policy(String name, String p, String shadow, Set<String> refused) {
        Algorithm algorithm = values.read(p, shadow, "algorithm", Algorithm::parse, Setting.ALGORITHM.rule(), refused)
                .orElse(Algorithm.TOKEN_BUCKET);
        Limit.Builder b = Limit.of(name, algorithm.api());
        values.read(p, shadow, "capacity", PropertyValues::parseLong, LimitRules.CAPACITY_FORM, refused)
                .ifPresent(b::capacity);
        values.read(p, shadow, "refill-tokens", PropertyValues::parseLong, LimitRules.REFILL_TOKENS_FORM, refused)
                .ifPresent(b::refillTokens);
        values.read(p, shadow, "refill-period", Durations::parse, Setting.REFILL_PERIOD.rule(), refused)
                .ifPresent(b::refillPeriod);
        values.read(p, shadow, "cost", PropertyValues::parseLong, Setting.COST.rule(), refused)
                .ifPresent(b::cost);
        values.read(p, shadow, "persist", SettingsReader::bool, Setting.PERSIST.rule(), refused)
                .ifPresent(b::persist);
        calendar(p, shadow, refused).ifPresent(b::calendar);
        return b;
    }

    /**
     * A calendar quota's period ({@code period}, {@code zone}, {@code anchor}); empty when {@code period}
     * is not given or a value does not parse (reported), or {@code anchor} does not fit the unit.
     */
    private Optional<CalendarPeriod> calendar(String p, String shadow, Set<String> refused) {
        Optional<CalendarPeriod.Unit> unit =
                values.read(p, shadow, "period", CalendarPeriod.Unit::parse, Setting.PERIOD.rule(), refused);
        Optional<ZoneId> zone = values.read(p, shadow, "zone", CalendarPeriod::parseZone, Setting.ZONE.rule(), refused);
        Optional<Integer> anchor = values.read(p, shadow, "anchor", Integer::parseInt, Setting.ANCHOR.rule(), refused);
        if (unit.isEmpty() || refused.contains(shadow + "zone") || refused.contains(shadow + "anchor")) {
            return Optional.empty();
        }
        int a = anchor.orElse(1);
        List<ConfigProblem> anchorProblems = LimitRules.checkAnchor(unit.get(), a);
        if (!anchorProblems.isEmpty()) {
            // Reported here, where the unit is known; the builder then misses the period, said already.
            values.report(p, anchorProblems, refused);
            refused.add(shadow + "period");
            return Optional.empty();
        }
        return Optional.of(new CalendarPeriod(unit.get(), zone.orElse(ZoneOffset.UTC), a));
    }
}
