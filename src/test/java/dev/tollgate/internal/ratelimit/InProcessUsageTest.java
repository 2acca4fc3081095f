package dev.tollgate.internal.ratelimit;

import dev.tollgate.internal.engine.Engine;
import dev.tollgate.testing.TestSettings;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;

/** Usage you can bill in this JVM (the limits in memory), on the system clock, as the days are UTC days of now. */
class InProcessUsageTest extends UsageContract {

    private static final Engine TOLLGATE = Engine.build(TestSettings.read(LIMITS));

    @AfterAll
    static void close() {
        TOLLGATE.close();
    }

    @Override
    protected Engine tollgate() {
        return TOLLGATE;
    }

    @Override
    protected Map<String, String> ledger(String key) {
        return null;
    }

    @Override
    protected Long ttlSeconds(String key) {
        return null;
    }
}
