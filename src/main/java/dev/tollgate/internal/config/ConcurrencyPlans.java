package dev.tollgate.internal.config;

import dev.tollgate.ConcurrencyLimited;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The one reader of {@link ConcurrencyLimited}, for the CDI extension and the interceptor: the method's
 * annotation over its bean class's, read once per {@link BeanMethod}.
 */
public final class ConcurrencyPlans {

    private static final Map<BeanMethod, Optional<String>> LIMITS = new ConcurrentHashMap<>();

    private ConcurrencyPlans() {}

    /** The concurrency limit of {@code method}, if it has one. */
    public static Optional<String> of(BeanMethod method) {
        return LIMITS.computeIfAbsent(
                method, m -> m.binding(ConcurrencyLimited.class).map(ConcurrencyLimited::value));
    }

    /**
     * Every {@link ConcurrencyLimited} of {@code beanClass}, for deployment validation: the type's (under
     * the class name) and each business method's own (under {@code class#method}).
     */
    public static Map<String, String> usages(Class<?> beanClass) {
        Map<String, String> out = new LinkedHashMap<>();
        ConcurrencyLimited onType = beanClass.getAnnotation(ConcurrencyLimited.class);
        if (onType != null) {
            out.put(beanClass.getName(), onType.value());
        }
        for (BeanMethod m : BeanMethod.of(beanClass)) {
            ConcurrencyLimited onMethod = m.method().getAnnotation(ConcurrencyLimited.class);
            if (onMethod != null) {
                out.put(m.where(), onMethod.value());
            }
        }
        return out;
    }
}
