package dev.tollgate.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tollgate.Acquisition;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Type;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The plain-Java facade and its builder hand out and take the API only, and are the engine users get. */
class TollgateFacadeTest {

    private static final Pattern TYPE = Pattern.compile("[a-z][\\w.]*\\.[A-Z]\\w*");

    @Test
    void everyPublicMethodSpeaksOnlyTheApi() {
        List<String> internal = new ArrayList<>();
        List<Method> methods = new ArrayList<>(Arrays.asList(Tollgate.class.getDeclaredMethods()));
        methods.addAll(Arrays.asList(Tollgate.Builder.class.getDeclaredMethods()));
        for (Method m : methods) {
            if (!Modifier.isPublic(m.getModifiers())) {
                continue;
            }
            List<Type> types = new ArrayList<>(Arrays.asList(m.getGenericParameterTypes()));
            types.add(m.getGenericReturnType());
            types.addAll(Arrays.asList(m.getGenericExceptionTypes()));
            for (Type t : types) {
                Matcher names = TYPE.matcher(t.getTypeName());
                while (names.find()) {
                    String name = names.group();
                    boolean api = name.startsWith("java.")
                            || name.equals(Tollgate.class.getName())
                            || name.startsWith("dev.tollgate.spi.")
                            || name.matches("dev\\.tollgate\\.[A-Z]\\w*");
                    if (!api) {
                        internal.add(m.getName() + ": " + name);
                    }
                }
            }
        }
        assertEquals(List.of(), internal);
    }

    @Test
    void limitsCountersAndLocksFromPropertiesInThisJvm() {
        try (Tollgate tollgate = Tollgate.fromProperties(Map.of(
                "tollgate.limits.orders.capacity", "2",
                "tollgate.limits.orders.refill-tokens", "1",
                "tollgate.limits.orders.refill-period", "1h"))) {
            assertTrue(tollgate.check("orders", "alice").allowed());
            assertTrue(tollgate.check("orders", "alice").allowed());
            assertFalse(tollgate.check("orders", "alice").allowed());
            assertTrue(tollgate.check("orders", "bob").allowed());
            assertEquals(2, tollgate.policy("orders").capacity());
            assertEquals(3, tollgate.counters().increment("signups", 3, Duration.ofMinutes(1)));
            assertTrue(tollgate.locks().tryAcquire("export", Duration.ofMinutes(1)) instanceof Acquisition.Acquired);
            assertTrue(
                    tollgate.locks().tryAcquire("export", Duration.ofMinutes(1)) instanceof Acquisition.HeldElsewhere);
        }
    }
}
