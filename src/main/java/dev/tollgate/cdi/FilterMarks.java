package dev.tollgate.cdi;

import dev.tollgate.internal.ratelimit.Admission;
import jakarta.servlet.ServletRequest;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.List;

/**
 * What the JAX-RS filter decided for this request: the limits it already checked for the request's
 * resource method, so the interceptor on that same method does not count the call twice, and the
 * admission the response settles. Kept as one attribute of the request (a JAX-RS request property is
 * one, in a servlet container): it lives exactly as long as the request, on whichever thread serves it,
 * at the cost of a map entry rather than a request-scoped bean.
 */
public final class FilterMarks {

    /** The request attribute the marks are kept under. */
    public static final String ATTRIBUTE = FilterMarks.class.getName();

    private final Method method;
    private final List<String> limits;
    private final Admission admission;

    /** {@code limits} checked by the filter for {@code resourceMethod} (null: none), admitted as {@code admission}. */
    public FilterMarks(Method resourceMethod, List<String> limits, Admission admission) {
        this.method = resourceMethod;
        this.limits = List.copyOf(limits);
        this.admission = admission;
    }

    /** The filter's admission of the request, which the response settles. */
    public Admission admission() {
        return admission;
    }

    /** The marks {@code request} holds, or null. */
    static FilterMarks of(ServletRequest request) {
        return request.getAttribute(ATTRIBUTE) instanceof FilterMarks m ? m : null;
    }

    /** Whether {@code limit} was checked by the filter for {@code method} (or the same method of a subclass). */
    public boolean wasChecked(Method method, String limit) {
        return limits.contains(limit) && sameMethod(this.method, method);
    }

    /** Whether every one of {@code limits} was checked by the filter for {@code method}, as {@link #wasChecked}. */
    public boolean checkedAll(Method method, List<String> limits) {
        return this.limits.containsAll(limits) && sameMethod(this.method, method);
    }

    private static boolean sameMethod(Method a, Method b) {
        return a.equals(b)
                || a.getName().equals(b.getName())
                        && Arrays.equals(a.getParameterTypes(), b.getParameterTypes())
                        && (a.getDeclaringClass().isAssignableFrom(b.getDeclaringClass())
                                || b.getDeclaringClass().isAssignableFrom(a.getDeclaringClass()));
    }
}
