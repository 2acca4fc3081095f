package dev.tollgate.internal.engine;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;

import dev.tollgate.internal.ratelimit.DecisionListener;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import org.junit.jupiter.api.Test;

/** The console's listeners are told of everything, as {@link DecisionListener#both} tells: none left to its default. */
class ConsoleListenersTest {

    @Test
    void forwardsEveryMethod() {
        for (Method m : DecisionListener.class.getDeclaredMethods()) {
            if (Modifier.isStatic(m.getModifiers()) || m.isSynthetic()) {
                continue;
            }
            assertDoesNotThrow(
                    () -> ConsoleListeners.class.getDeclaredMethod(m.getName(), m.getParameterTypes()),
                    "ConsoleListeners does not forward " + m.getName());
        }
    }
}
