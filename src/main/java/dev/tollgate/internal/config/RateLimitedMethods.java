package dev.tollgate.internal.config;

import dev.tollgate.CountOn;
import dev.tollgate.RateCost;
import dev.tollgate.RateKey;
import dev.tollgate.RateLimited;
import dev.tollgate.TollgateConfigException;
import dev.tollgate.internal.core.Durations;
import java.lang.annotation.Annotation;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The one reader of {@link RateLimited} and {@link RateKey}, for the CDI extension, the interceptor and
 * the JAX-RS filter alike: the method's annotation over its bean class's, read once per {@link
 * BeanMethod}.
 */
public final class RateLimitedMethods {

    private static final Map<BeanMethod, MethodLimits> READ = new ConcurrentHashMap<>();

    private RateLimitedMethods() {}

    /**
     * The limits of {@code method} as {@code beanClass} has it.
     *
     * @throws TollgateConfigException when its {@code maxWait} is not a duration &ge; 0 (found at deployment)
     */
    public static MethodLimits of(BeanMethod method) {
        return READ.computeIfAbsent(method, RateLimitedMethods::read);
    }

    private static MethodLimits read(BeanMethod m) {
        List<String> limits =
                m.binding(RateLimited.class).map(r -> List.of(r.value())).orElse(List.of());
        int keyParameter = -1;
        int costParameter = -1;
        Annotation[][] params = m.method().getParameterAnnotations();
        for (int i = 0; i < params.length; i++) {
            for (Annotation a : params[i]) {
                if (a instanceof RateKey) {
                    keyParameter = i;
                } else if (a instanceof RateCost) {
                    costParameter = i;
                }
            }
        }
        Optional<RateLimited> r = m.binding(RateLimited.class);
        return new MethodLimits(
                limits,
                keyParameter,
                maxWait(m),
                costParameter,
                r.map(RateLimited::countOn).orElse(CountOn.ALWAYS),
                r.map(x -> List.of(x.failOn())).orElse(List.of(Throwable.class)));
    }

    private static Duration maxWait(BeanMethod m) {
        String text = m.binding(RateLimited.class).map(RateLimited::maxWait).orElse("0s");
        Duration d;
        try {
            d = Durations.parse(text);
        } catch (IllegalArgumentException e) {
            throw new TollgateConfigException(
                    "@RateLimited(maxWait = \"" + text + "\") on " + m.where() + ": " + e.getMessage());
        }
        if (d.isNegative()) {
            throw new TollgateConfigException(
                    "@RateLimited(maxWait = \"" + text + "\") on " + m.where() + ": expected a duration >= 0");
        }
        return d;
    }

    /**
     * Every {@link RateLimited} of {@code beanClass}, for deployment validation: the type's (under the class
     * name) and each business method's own (under {@code class#method}).
     */
    public static Map<String, List<String>> usages(Class<?> beanClass) {
        Map<String, List<String>> out = new LinkedHashMap<>();
        RateLimited onType = beanClass.getAnnotation(RateLimited.class);
        if (onType != null) {
            out.put(beanClass.getName(), List.of(onType.value()));
        }
        for (BeanMethod m : BeanMethod.of(beanClass)) {
            RateLimited onMethod = m.method().getAnnotation(RateLimited.class);
            if (onMethod != null) {
                out.put(m.where(), new ArrayList<>(List.of(onMethod.value())));
            }
        }
        return out;
    }
}
