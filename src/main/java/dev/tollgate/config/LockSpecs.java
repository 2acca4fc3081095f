package dev.tollgate.config;

import dev.tollgate.OncePerCluster;
import dev.tollgate.TollgateConfigException;
import dev.tollgate.core.Durations;
import dev.tollgate.lock.LockNames;
import dev.tollgate.lock.LockSpec;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

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

    /** The spec of {@code method} run once per cluster under {@code annotation}. */
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
        Duration ttl = duration(name, "ttl", annotation.ttl(), where);
        Duration atLeast = duration(name, "at-least", annotation.atLeast(), where);
        boolean keepAlive = keepAlive(name, annotation.keepAlive());
        try {
            return new LockSpec(name, ttl, atLeast, keepAlive);
        } catch (IllegalArgumentException e) {
            throw new TollgateConfigException("@OncePerCluster on " + where + ": " + e.getMessage(), e);
        }
    }

    private boolean keepAlive(String lock, boolean annotated) {
        String property = "tollgate.locks." + lock + ".keep-alive";
        Optional<String> configured = config.get(property).map(String::trim);
        if (configured.isEmpty()) {
            return annotated;
        }
        return switch (configured.get().toLowerCase(java.util.Locale.ROOT)) {
            case "true" -> true;
            case "false" -> false;
            default -> throw TollgateConfigException.invalid(property, configured.get(), "expected true or false");
        };
    }

    private Duration duration(String lock, String field, String annotated, String where) {
        String property = "tollgate.locks." + lock + "." + field;
        Optional<String> configured = config.get(property);
        String value = configured.orElse(annotated);
        if (value.isBlank()) {
            throw new TollgateConfigException("@OncePerCluster on " + where + " has no " + field
                    + ": give it in the annotation or as " + property);
        }
        Duration d;
        try {
            d = Durations.parse(value);
        } catch (IllegalArgumentException e) {
            throw invalid(configured.isPresent(), property, field, value, where, e.getMessage());
        }
        boolean ttl = field.equals("ttl");
        if (d.isNegative() || (ttl && d.isZero())) {
            throw invalid(configured.isPresent(), property, field, value, where, ttl ? "must be > 0" : "must be >= 0");
        }
        return d;
    }

    private static TollgateConfigException invalid(
            boolean fromConfig, String property, String field, String value, String where, String expected) {
        if (fromConfig) {
            return TollgateConfigException.invalid(property, value, expected);
        }
        String member = field.equals("ttl") ? "ttl" : "atLeast";
        return new TollgateConfigException(
                "@OncePerCluster(" + member + " = \"" + value + "\") on " + where + ": " + expected);
    }
}
