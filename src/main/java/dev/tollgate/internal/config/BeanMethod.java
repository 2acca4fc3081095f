package dev.tollgate.internal.config;

import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * A business method as one bean class has it: what Tollgate reads its annotations for, and caches them
 * by. Two bean classes inheriting one method are two bean methods, each with its own type's annotations.
 *
 * @param beanClass the bean's class (or a container's subclass of it)
 * @param method the method, declared by {@code beanClass} or a superclass
 */
public record BeanMethod(Class<?> beanClass, Method method) {

    public BeanMethod {
        if (beanClass == null || method == null) {
            throw new IllegalArgumentException("beanClass and method are required");
        }
    }

    /**
     * The interceptor binding that applies: the method's own, else its bean class's (inherited from a
     * superclass when the annotation is {@code @Inherited}). A method's annotation replaces the type's.
     */
    public <A extends Annotation> Optional<A> binding(Class<A> type) {
        A onMethod = method.getAnnotation(type);
        return onMethod != null ? Optional.of(onMethod) : Optional.ofNullable(beanClass.getAnnotation(type));
    }

    /** {@code com.shop.Orders#place}, for messages. */
    public String where() {
        return beanClass.getName() + "#" + method.getName();
    }

    /** The business methods of {@code beanClass}: its own and inherited, neither private, static nor {@link Object}'s; each once. */
    public static List<BeanMethod> of(Class<?> beanClass) {
        List<BeanMethod> out = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (Class<?> c = beanClass; c != null && c != Object.class; c = c.getSuperclass()) {
            for (Method m : c.getDeclaredMethods()) {
                int mod = m.getModifiers();
                boolean business = !Modifier.isPrivate(mod) && !Modifier.isStatic(mod) && !m.isSynthetic();
                if (business && seen.add(m.getName() + Arrays.toString(m.getParameterTypes()))) {
                    out.add(new BeanMethod(beanClass, m));
                }
            }
        }
        return out;
    }
}
