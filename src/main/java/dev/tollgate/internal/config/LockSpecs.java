package dev.tollgate.internal.config;

import dev.tollgate.ConfigProblem;
import dev.tollgate.JobLock;
import dev.tollgate.OncePerCluster;
import dev.tollgate.TollgateConfigException;
import dev.tollgate.internal.core.Durations;
import dev.tollgate.internal.lock.LockNames;
import dev.tollgate.internal.lock.LockSpec;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The one reader of {@link OncePerCluster}: turns it, on a method or its bean class, into a {@link LockSpec}, applying the overrides
 * {@code tollgate.locks.<name>.ttl}, {@code .at-least} and {@code .keep-alive}. Every problem is a
 * {@link TollgateConfigException} naming the method or property and the value.
 */
public final class LockSpecs {

    private final PropertySource config;

    public LockSpecs(PropertySource config) {
        this.config = config;
    }

    /** The spec of {@code method}, by its {@link OncePerCluster} (the method's, else its bean class's). */
    public LockSpec of(BeanMethod method) {
        OncePerCluster annotation = method.binding(OncePerCluster.class)
                .orElseThrow(() -> new TollgateConfigException("no @OncePerCluster on " + method.where()));
        return of(annotation, method.method());
    }

    /** The business methods of {@code beanClass} that run once per cluster. */
    public static List<BeanMethod> jobs(Class<?> beanClass) {
        return BeanMethod.of(beanClass).stream()
                .filter(m -> m.binding(OncePerCluster.class).isPresent())
                .toList();
    }

    /**
     * The spec of {@code method} run once per cluster under {@code annotation}: the annotation and its
     * overrides read onto {@link JobLock}'s builder. Every problem of the job is reported together.
     */
    public LockSpec of(OncePerCluster annotation, Method method) {
        String where = method.getDeclaringClass().getName() + "." + method.getName();
        if (method.getReturnType() != void.class) {
            throw new TollgateConfigException("@OncePerCluster method " + where + " must return void: it is"
                    + " skipped on every server that does not get the lock, and a skipped call has no value");
        }
        String name = annotation.name().isEmpty()
                ? method.getDeclaringClass().getSimpleName() + "." + method.getName()
                : annotation.name();
        try {
            LockNames.check(name);
        } catch (IllegalArgumentException e) {
            throw new TollgateConfigException("@OncePerCluster on " + where + ": " + e.getMessage(), e);
        }
        Job job = new Job(name, where, new ArrayList<>());
        JobLock.Builder lock = JobLock.of(name);
        job.duration("ttl", annotation.ttl()).ifPresent(lock::ttl);
        job.duration("at-least", annotation.atLeast()).ifPresent(lock::atLeast);
        lock.keepAlive(job.keepAlive(annotation.keepAlive()));
        for (ConfigProblem p : lock.problems()) {
            if (!job.refused.contains(p.settings().get(0))) {
                job.problem(
                        p.settings().get(0), annotated(annotation, p.settings().get(0)), p.why());
            }
        }
        if (job.problems.size() == 1) {
            throw job.problems.get(0);
        }
        if (!job.problems.isEmpty()) {
            throw TollgateConfigException.of(
                    job.problems.stream().flatMap(e -> e.problems().stream()).toList());
        }
        return TypedSpecs.lock(lock.build());
    }

    private static String annotated(OncePerCluster annotation, String field) {
        return field.equals("ttl") ? annotation.ttl() : annotation.atLeast();
    }

    /** One job's lock while it is read: each problem names the property, or the annotation, that gave the value. */
    private final class Job {
        private final String name;
        private final String where;
        private final List<TollgateConfigException> problems;
        private final Set<String> refused = new TreeSet<>();

        Job(String name, String where, List<TollgateConfigException> problems) {
            this.name = name;
            this.where = where;
            this.problems = problems;
        }

        private String property(String field) {
            return SettingsReader.LOCKS + name + "." + field;
        }

        boolean keepAlive(boolean annotated) {
            String property = property("keep-alive");
            Optional<String> configured = config.get(property).map(String::trim);
            if (configured.isEmpty()) {
                return annotated;
            }
            try {
                return SettingsReader.bool(configured.get());
            } catch (IllegalArgumentException e) {
                problems.add(TollgateConfigException.invalid(
                        property, configured.get(), "expected " + SettingsReader.FLAG_RULE));
                return annotated;
            }
        }

        Optional<Duration> duration(String field, String annotated) {
            Optional<String> configured = config.get(property(field));
            String value = configured.orElse(annotated);
            if (value.isBlank()) {
                problems.add(new TollgateConfigException("@OncePerCluster on " + where + " has no " + field
                        + ": give it in the annotation or as " + property(field)));
                refused.add(field);
                return Optional.empty();
            }
            try {
                return Optional.of(Durations.parse(value));
            } catch (IllegalArgumentException e) {
                problem(field, annotated, e.getMessage());
                refused.add(field);
                return Optional.empty();
            }
        }

        /** {@code why} for {@code field}: its property's value when configured, else the annotation's. */
        void problem(String field, String annotated, String why) {
            String property = property(field);
            Optional<String> configured = config.get(property);
            if (configured.isPresent()) {
                problems.add(TollgateConfigException.invalid(property, configured.get(), why));
            } else {
                String member = field.equals("ttl") ? "ttl" : "atLeast";
                problems.add(new TollgateConfigException(
                        "@OncePerCluster(" + member + " = \"" + annotated + "\") on " + where + ": " + why));
            }
        }
    }
}
