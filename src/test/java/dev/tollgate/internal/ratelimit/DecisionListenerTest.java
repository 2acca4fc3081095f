package dev.tollgate.internal.ratelimit;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import org.junit.jupiter.api.Test;

/** {@link DecisionListener#both} tells both listeners of everything: each method is forwarded, none left to its default. */
class DecisionListenerTest {

    @Test
    void bothForwardsEveryMethod() {
        DecisionListener one = (limit, decision, nanos) -> {};
        DecisionListener other = (limit, decision, nanos) -> {};
        Class<?> both = DecisionListener.both(one, other).getClass();
        for (Method m : DecisionListener.class.getDeclaredMethods()) {
            if (Modifier.isStatic(m.getModifiers()) || m.isSynthetic()) {
                continue;
            }
            assertDoesNotThrow(
                    () -> both.getDeclaredMethod(m.getName(), m.getParameterTypes()),
                    "DecisionListener.both does not forward " + m.getName());
        }
    }
}
