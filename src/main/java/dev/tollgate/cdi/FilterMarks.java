package dev.tollgate.cdi;

import jakarta.enterprise.context.RequestScoped;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The limits the JAX-RS filter already checked for this request's resource method, so the
 * interceptor on that same method does not count the call twice.
 */
@RequestScoped
public class FilterMarks {

    private final List<Mark> marks = new ArrayList<>();

    private record Mark(Method method, String limit) {}

    public void checked(Method resourceMethod, String limit) {
        marks.add(new Mark(resourceMethod, limit));
    }

    /** Whether {@code limit} was checked by the filter for {@code method} (or the same method of a subclass). */
    public boolean wasChecked(Method method, String limit) {
        for (Mark m : marks) {
            if (m.limit.equals(limit) && sameMethod(m.method, method)) {
                return true;
            }
        }
        return false;
    }

    private static boolean sameMethod(Method a, Method b) {
        return a.getName().equals(b.getName())
                && Arrays.equals(a.getParameterTypes(), b.getParameterTypes())
                && (a.getDeclaringClass().isAssignableFrom(b.getDeclaringClass())
                        || b.getDeclaringClass().isAssignableFrom(a.getDeclaringClass()));
    }
}
