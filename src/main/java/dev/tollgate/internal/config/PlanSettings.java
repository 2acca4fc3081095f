package dev.tollgate.internal.config;

import dev.tollgate.internal.ratelimit.LimitSpec;
import dev.tollgate.internal.ratelimit.Plans;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * Reads every limit's {@code plans} and {@code plan-resolver}: each plan names a configured limit of the
 * same algorithm (whose policy its callers spend under), and the two settings come together.
 */
final class PlanSettings {

    private static final Pattern BEAN = Pattern.compile("[A-Za-z_$][A-Za-z0-9_$.-]*");

    private final PropertySource source;
    private final List<String> problems = new ArrayList<>();

    private PlanSettings(PropertySource source) {
        this.source = source;
    }

    /** The plans of every limit that has them; {@code problems} gets one line per bad setting. */
    static Map<String, Plans> read(
            PropertySource source, Set<String> defined, Map<String, LimitSpec> limits, List<String> problems) {
        PlanSettings p = new PlanSettings(source);
        Map<String, Plans> out = new TreeMap<>();
        for (String name : defined) {
            p.plans(name, defined, limits).ifPresent(plans -> out.put(name, plans));
        }
        problems.addAll(p.problems);
        return out;
    }

    private Optional<Plans> plans(String name, Set<String> defined, Map<String, LimitSpec> limits) {
        String prefix = SettingsReader.LIMITS + name + ".";
        Optional<String> plansText = get(prefix + "plans");
        Optional<String> resolver = get(prefix + "plan-resolver");
        if (plansText.isEmpty() && resolver.isEmpty()) {
            return Optional.empty();
        }
        int before = problems.size();
        if (resolver.isEmpty()) {
            problems.add(
                    prefix + "plan-resolver is required with " + prefix + "plans (the name of a PlanResolver bean)");
        } else if (!BEAN.matcher(resolver.get()).matches()) {
            problems.add(prefix + "plan-resolver=" + resolver.get() + " (expected the name of a PlanResolver bean)");
        }
        if (plansText.isEmpty()) {
            problems.add(prefix + "plans is required with " + prefix
                    + "plan-resolver (<plan>:<limit>, ...: the limit whose policy each plan spends under)");
            return Optional.empty();
        }
        Map<String, String> byPlan;
        try {
            byPlan = Plans.parse(plansText.get());
        } catch (IllegalArgumentException e) {
            problems.add(
                    prefix + "plans=" + plansText.get() + " (expected <plan>:<limit>, ...; " + e.getMessage() + ")");
            return Optional.empty();
        }
        byPlan.forEach((plan, limit) -> check(prefix, plansText.get(), name, plan, limit, defined, limits));
        return problems.size() > before ? Optional.empty() : Optional.of(new Plans(resolver.get(), byPlan));
    }

    private void check(
            String prefix,
            String text,
            String name,
            String plan,
            String limit,
            Set<String> defined,
            Map<String, LimitSpec> limits) {
        if (!defined.contains(limit)) {
            problems.add(prefix + "plans=" + text + " (plan '" + plan + "' names limit '" + limit
                    + "', which is not configured: set tollgate.limits." + limit + ".capacity)");
            return;
        }
        LimitSpec own = limits.get(name);
        LimitSpec its = limits.get(limit);
        if (own != null && its != null && own.algorithm() != its.algorithm()) {
            problems.add(prefix + "plans=" + text + " (plan '" + plan + "' names limit '" + limit + "', a "
                    + its.algorithm().configName() + " limit; '" + name + "' is a "
                    + own.algorithm().configName()
                    + " limit, and a plan chooses the policy of the limit's own bucket)");
        }
    }

    private Optional<String> get(String property) {
        return source.get(property).map(String::trim).filter(s -> !s.isEmpty());
    }
}
