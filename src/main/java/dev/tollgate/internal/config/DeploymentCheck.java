package dev.tollgate.internal.config;

import dev.tollgate.RateLimited;
import dev.tollgate.TollgateConfigException;
import dev.tollgate.internal.ratelimit.Algorithm;
import dev.tollgate.internal.ratelimit.KeySpec;
import dev.tollgate.internal.ratelimit.LimitSpec;
import dev.tollgate.spi.KeyResolver;
import dev.tollgate.spi.PlanResolver;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.BiPredicate;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.stream.Stream;

/**
 * Everything checked while an application deploys, reported together: every setting, every limit named
 * by a {@code @RateLimited} annotation, every concurrency limit named by a {@code @ConcurrencyLimited}
 * one, every {@code KeyResolver} bean named by a {@code key} setting, every {@code @OncePerCluster}
 * job's name, ttl, at-least and keep-alive (with their overrides).
 */
public final class DeploymentCheck {

    private DeploymentCheck() {}

    /**
     * What the deployment knows of its beans, kept for every later check (a reload is checked as the
     * deployment was).
     *
     * @param annotated the classes that carry {@code @RateLimited}, {@code @ConcurrencyLimited} or {@code
     *     @OncePerCluster}
     * @param named whether a bean of that name exists with that type among its bean types ({@code
     *     KeyResolver} for {@code key=<bean name>}, {@code PlanResolver} for {@code plan-resolver}): a bean of
     *     the name but of another type would fail every request that looks it up
     */
    public record Beans(Collection<Class<?>> annotated, BiPredicate<String, Class<?>> named) {

        public Beans {
            annotated = List.copyOf(annotated);
            Objects.requireNonNull(named, "named");
        }

        /** Beans whose names alone are checked ({@code named}), whatever their types. */
        public Beans(Collection<Class<?>> annotated, Predicate<String> named) {
            this(annotated, (name, type) -> named.test(name));
        }

        /**
         * Plain Java: no annotated class, and any bean name accepted, since a call there names its client
         * key itself and a {@code key} setting names nothing to look up.
         */
        public static Beans plainJava() {
            return new Beans(List.of(), name -> true);
        }
    }

    /**
     * What a check found.
     *
     * @param settings present when there is no problem
     * @param problems one line per problem, naming the property or the annotated method and the value
     */
    public record Outcome(Optional<TollgateSettings> settings, List<String> problems) {

        public Outcome {
            problems = List.copyOf(problems);
            settings = problems.isEmpty() ? settings : Optional.empty();
        }
    }

    /**
     * Every problem, one line each, naming the property or the annotated method and the value; empty
     * when there is none.
     *
     * @param beanClasses the classes that carry {@code @RateLimited}, {@code @ConcurrencyLimited} or {@code
     *     @OncePerCluster}
     * @param beanNamed whether a bean of that name exists, for {@code key=<bean name>}
     */
    public static List<String> problems(
            PropertySource properties, Collection<Class<?>> beanClasses, Predicate<String> beanNamed) {
        return problems(properties, new Beans(beanClasses, beanNamed));
    }

    /** The deployment's check: every problem of {@code properties} and {@code beans}, empty when none. */
    public static List<String> problems(PropertySource properties, Beans beans) {
        return check(properties, LimitsFile::read, beans).problems();
    }

    /**
     * A reload's check, which is the deployment's: {@code properties} with {@code file} (one version of
     * {@code tollgate.config.file}, read once) in place of the file, checked against the deployment's beans.
     */
    public static Outcome reload(PropertySource properties, LimitsFile.Snapshot file, Beans beans) {
        return check(properties, path -> LimitsFile.parse(path, file), beans);
    }

    /** The one check, for a deployment and a reload alike. */
    private static Outcome check(PropertySource properties, Function<Path, LimitsFile.Read> file, Beans beans) {
        Collection<Class<?>> beanClasses = beans.annotated();
        Predicate<String> keyBean = name -> beans.named().test(name, KeyResolver.class);
        Predicate<String> planBean = name -> beans.named().test(name, PlanResolver.class);
        SettingsReader.Reading settings = SettingsReader.check(properties, file);
        List<String> problems = new ArrayList<>(settings.problems());
        for (Class<?> type : beanClasses) {
            RateLimitedMethods.usages(type)
                    .forEach((where, names) -> problems.addAll(unknownLimits(settings, where, names)));
        }
        boolean allowWait = settings.settings().map(t -> t.http().allowWait()).orElse(false);
        for (Class<?> type : beanClasses) {
            for (BeanMethod m : BeanMethod.of(type)) {
                if (m.binding(RateLimited.class).isPresent()) {
                    problems.addAll(waitProblems(settings, m, allowWait));
                    problems.addAll(costProblems(m));
                }
            }
        }
        for (Class<?> type : beanClasses) {
            ConcurrencyPlans.usages(type).forEach((where, name) -> {
                if (!settings.definedConcurrency().contains(name)) {
                    problems.add("@ConcurrencyLimited(\"" + name + "\") on " + where
                            + ": no concurrency limit named '" + name + "' is configured (set tollgate.concurrency."
                            + name + ".max-in-flight)");
                }
            });
        }
        settings.settings().ifPresent(s -> s.concurrency().values().forEach(c -> {
            if (c.key() instanceof KeySpec.Bean b && !keyBean.test(b.name())) {
                problems.add("tollgate.concurrency." + c.name() + ".key=" + b.name()
                        + " (expected ip, principal, global, header:<Name> or the name of a KeyResolver bean;"
                        + " no KeyResolver bean is named '" + b.name() + "')");
            }
        }));
        settings.limits().values().forEach(limit -> {
            if (limit.key() instanceof KeySpec.Bean b && !keyBean.test(b.name())) {
                problems.add("tollgate.limits." + limit.name() + ".key=" + b.name()
                        + " (expected ip, principal, global, header:<Name> or the name of a KeyResolver bean;"
                        + " no KeyResolver bean is named '" + b.name() + "')");
            }
        });
        settings.settings().ifPresent(s -> s.plans().forEach((limit, plans) -> {
            if (!planBean.test(plans.resolver())) {
                problems.add("tollgate.limits." + limit + ".plan-resolver=" + plans.resolver()
                        + " (expected the name of a PlanResolver bean; no PlanResolver bean is named '"
                        + plans.resolver() + "')");
            }
        }));
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
        return new Outcome(settings.settings(), problems);
    }

    /** What is wrong with a method's {@code maxWait}: not a duration, a limit that cannot owe, a request thread. */
    private static List<String> waitProblems(SettingsReader.Reading settings, BeanMethod m, boolean allowWait) {
        MethodLimits plan;
        try {
            plan = RateLimitedMethods.of(m);
        } catch (TollgateConfigException e) {
            return List.of(e.getMessage());
        }
        if (!plan.waits()) {
            return List.of();
        }
        List<String> problems = new ArrayList<>();
        String where = "@RateLimited(maxWait = \""
                + m.binding(RateLimited.class).orElseThrow().maxWait() + "\") on " + m.where();
        for (String name : plan.limits()) {
            LimitSpec limit = settings.limits().get(name);
            if (limit != null
                    && (limit.algorithm() != Algorithm.TOKEN_BUCKET
                            || !limit.policy().refills())) {
                problems.add(where + ": limit '" + name + "' is a "
                        + (limit.algorithm() == Algorithm.TOKEN_BUCKET
                                ? "quota that never refills"
                                : limit.algorithm().configName() + " limit")
                        + "; only a token bucket that refills can be waited for");
            }
        }
        if (!allowWait && isJaxRsResource(m)) {
            problems.add(where + ": a JAX-RS resource method would park its request thread while it waits;"
                    + " wait in the business method it calls, or set tollgate.http.allow-wait=true");
        }
        return problems;
    }

    private static final Set<Class<?>> WHOLE_NUMBERS =
            Set.of(long.class, int.class, short.class, byte.class, Long.class, Integer.class, Short.class, Byte.class);

    /** A {@code @RateCost} parameter that is not a whole number. */
    private static List<String> costProblems(BeanMethod m) {
        int i;
        try {
            i = RateLimitedMethods.of(m).costParameter();
        } catch (TollgateConfigException e) {
            return List.of();
        }
        if (i < 0 || WHOLE_NUMBERS.contains(m.method().getParameterTypes()[i])) {
            return List.of();
        }
        return List.of("@RateCost on parameter " + i + " ("
                + m.method().getParameterTypes()[i].getSimpleName() + ") of " + m.where()
                + ": expected a whole number (long, int, short, byte or their boxes)");
    }

    /** Whether {@code m} is a JAX-RS resource method, by its annotations' names (config knows no Jakarta). */
    private static boolean isJaxRsResource(BeanMethod m) {
        return Stream.concat(
                        Arrays.stream(m.method().getAnnotations()),
                        Arrays.stream(m.beanClass().getAnnotations()))
                .anyMatch(a -> a.annotationType().getName().startsWith("jakarta.ws.rs."));
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
