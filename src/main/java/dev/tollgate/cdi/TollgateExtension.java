package dev.tollgate.cdi;

import dev.tollgate.OncePerCluster;
import dev.tollgate.RateLimited;
import dev.tollgate.TollgateConfigException;
import dev.tollgate.config.LockSpecs;
import dev.tollgate.config.PropertySource;
import dev.tollgate.config.SettingsReader;
import dev.tollgate.config.TollgateSettings;
import dev.tollgate.ratelimit.KeySpec;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.spi.AfterDeploymentValidation;
import jakarta.enterprise.inject.spi.AnnotatedMethod;
import jakarta.enterprise.inject.spi.AnnotatedType;
import jakarta.enterprise.inject.spi.BeanManager;
import jakarta.enterprise.inject.spi.Extension;
import jakarta.enterprise.inject.spi.ProcessAnnotatedType;
import jakarta.enterprise.inject.spi.WithAnnotations;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * Validates Tollgate's configuration while the application deploys: every setting, every limit named
 * by a {@link RateLimited} annotation, every {@code KeyResolver} bean named by a {@code key} setting,
 * every {@link OncePerCluster} job's name, ttl and at-least (with their {@code tollgate.locks.*} overrides).
 * Any problem fails the deployment with a message naming the property or the annotated method.
 */
public class TollgateExtension implements Extension {

    /** Where each limit name is used: "class#method" to names. */
    private final Map<String, String[]> usages = new TreeMap<>();

    /** Methods guarded by {@link OncePerCluster}, with their annotation (the method's or its type's). */
    private final Map<Method, OncePerCluster> jobs = new LinkedHashMap<>();

    void collectJobs(@Observes @WithAnnotations(OncePerCluster.class) ProcessAnnotatedType<?> event) {
        AnnotatedType<?> type = event.getAnnotatedType();
        if (type.isAnnotationPresent(jakarta.interceptor.Interceptor.class)) {
            return;
        }
        OncePerCluster onType = type.getAnnotation(OncePerCluster.class);
        for (AnnotatedMethod<?> m : type.getMethods()) {
            OncePerCluster a = m.getAnnotation(OncePerCluster.class);
            if (a == null && onType != null && m.getJavaMember().getDeclaringClass() == type.getJavaClass()) {
                a = onType;
            }
            if (a != null) {
                jobs.put(m.getJavaMember(), a);
            }
        }
    }

    void collect(@Observes @WithAnnotations(RateLimited.class) ProcessAnnotatedType<?> event) {
        AnnotatedType<?> type = event.getAnnotatedType();
        if (type.isAnnotationPresent(jakarta.interceptor.Interceptor.class)) {
            return;
        }
        String typeName = type.getJavaClass().getName();
        RateLimited onType = type.getAnnotation(RateLimited.class);
        if (onType != null) {
            usages.put(typeName, onType.value());
        }
        for (AnnotatedMethod<?> m : type.getMethods()) {
            RateLimited onMethod = m.getAnnotation(RateLimited.class);
            if (onMethod != null) {
                usages.put(typeName + "#" + m.getJavaMember().getName(), onMethod.value());
            }
        }
    }

    void validate(@Observes AfterDeploymentValidation event, BeanManager beans) {
        PropertySource properties = new MicroProfilePropertySource(ConfigProvider.getConfig());
        List<String> problems = new ArrayList<>();
        try {
            TollgateSettings settings = SettingsReader.read(properties);
            problems.addAll(problems(settings, usages));
            problems.addAll(missingResolvers(settings, beans));
        } catch (TollgateConfigException e) {
            problems.addAll(e.problems());
        }
        jobs.forEach((method, annotation) -> {
            try {
                new LockSpecs(properties).of(annotation, method);
            } catch (TollgateConfigException e) {
                problems.add(e.getMessage());
            }
        });
        if (!problems.isEmpty()) {
            event.addDeploymentProblem(TollgateConfigException.of(problems));
        }
    }

    private static List<String> missingResolvers(TollgateSettings settings, BeanManager beans) {
        List<String> problems = new ArrayList<>();
        settings.limits().values().forEach(limit -> {
            if (limit.key() instanceof KeySpec.Bean b
                    && beans.getBeans(b.name()).isEmpty()) {
                problems.add("tollgate.limits." + limit.name() + ".key=" + b.name()
                        + " (expected ip, principal, global, header:<Name> or the name of a KeyResolver bean;"
                        + " no bean is named '" + b.name() + "')");
            }
        });
        return problems;
    }

    /** A limit the environment defined under another spelling of {@code name}, if any, as a hint. */
    private static String spelledOtherwise(TollgateSettings settings, String name) {
        return settings.limits().keySet().stream()
                .filter(l -> variableForm(l).equals(variableForm(name)))
                .findFirst()
                .map(l -> "; environment variables TOLLGATE_LIMITS_" + variableForm(name) + "_* define '" + l
                        + "': to spell it '" + name + "', name it in tollgate.http.limits or give one of its"
                        + " settings in a properties file")
                .orElse("");
    }

    private static String variableForm(String limit) {
        return limit.replaceAll("[^A-Za-z0-9]", "_").toUpperCase(java.util.Locale.ROOT);
    }

    /** What is wrong with the annotations given the settings; empty when nothing is. */
    static List<String> problems(TollgateSettings settings, Map<String, String[]> usages) {
        List<String> problems = new ArrayList<>();
        usages.forEach((where, names) -> {
            if (names.length == 0) {
                problems.add("@RateLimited on " + where + " names no limit");
            }
            for (String name : names) {
                if (settings.limit(name).isEmpty()) {
                    problems.add("@RateLimited(\"" + name + "\") on " + where + ": no limit named '" + name
                            + "' is configured (set tollgate.limits." + name + ".capacity and .refill-tokens)"
                            + spelledOtherwise(settings, name));
                }
            }
        });
        return problems;
    }
}
