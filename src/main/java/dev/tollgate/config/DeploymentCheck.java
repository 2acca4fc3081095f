package dev.tollgate.config;

import dev.tollgate.TollgateConfigException;
import dev.tollgate.ratelimit.KeySpec;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Everything checked while an application deploys, reported together: every setting, every limit named
 * by a {@code @RateLimited} annotation, every {@code KeyResolver} bean named by a {@code key} setting,
 * every {@code @OncePerCluster} job's name, ttl and at-least (with their overrides).
 */
public final class DeploymentCheck {

    private DeploymentCheck() {}

    /**
     * Every problem, one line each, naming the property or the annotated method and the value; empty
     * when there is none.
     *
     * @param beanClasses the classes that carry {@code @RateLimited} or {@code @OncePerCluster}
     * @param beanNamed whether a bean of that name exists, for {@code key=<bean name>}
     */
    public static List<String> problems(
            PropertySource properties, Collection<Class<?>> beanClasses, Predicate<String> beanNamed) {
        SettingsReader.Reading settings = SettingsReader.check(properties);
        List<String> problems = new ArrayList<>(settings.problems());
        for (Class<?> type : beanClasses) {
            RateLimitPlans.usages(type)
                    .forEach((where, names) -> problems.addAll(unknownLimits(settings, where, names)));
        }
        settings.limits().values().forEach(limit -> {
            if (limit.key() instanceof KeySpec.Bean b && !beanNamed.test(b.name())) {
                problems.add("tollgate.limits." + limit.name() + ".key=" + b.name()
                        + " (expected ip, principal, global, header:<Name> or the name of a KeyResolver bean;"
                        + " no bean is named '" + b.name() + "')");
            }
        });
        LockSpecs locks = new LockSpecs(properties);
        for (Class<?> type : beanClasses) {
            for (BeanMethod job : LockSpecs.jobs(type)) {
                try {
                    locks.of(job);
                } catch (TollgateConfigException e) {
                    problems.addAll(e.problems());
                }
            }
        }
        return problems;
    }

    /** A limit environment variables defined under another spelling of {@code name}, as a hint. */
    private static String spelledOtherwise(Set<String> defined, String name) {
        String variable = SettingNames.variable(name);
        return defined.stream()
                .filter(l -> SettingNames.variable(l).equals(variable))
                .findFirst()
                .map(l -> "; environment variables TOLLGATE_LIMITS_" + variable + "_* define '" + l + "': to spell it '"
                        + name + "', name it in tollgate.http.limits or give one of its settings in a properties file")
                .orElse("");
    }

    /** A limit the properties do not mention at all; one they define badly is reported on its own. */
    private static List<String> unknownLimits(SettingsReader.Reading settings, String where, List<String> names) {
        List<String> problems = new ArrayList<>();
        if (names.isEmpty()) {
            problems.add("@RateLimited on " + where + " names no limit");
        }
        for (String name : names) {
            if (!settings.definedLimits().contains(name)) {
                problems.add("@RateLimited(\"" + name + "\") on " + where + ": no limit named '" + name
                        + "' is configured (set tollgate.limits." + name + ".capacity and .refill-tokens)"
                        + spelledOtherwise(settings.definedLimits(), name));
            }
        }
        return problems;
    }
}
