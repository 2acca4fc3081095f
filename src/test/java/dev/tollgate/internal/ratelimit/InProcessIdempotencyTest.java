package dev.tollgate.internal.ratelimit;

import dev.tollgate.internal.engine.Engine;
import dev.tollgate.testing.ManualClock;
import dev.tollgate.testing.TestSettings;
import org.junit.jupiter.api.AfterAll;

/** Idempotent charges in this JVM (the limits in memory), on a clock the test drives. */
class InProcessIdempotencyTest extends IdempotencyContract {

    private static final Engine TOLLGATE =
            Engine.builder(TestSettings.read(LIMITS)).clock(new ManualClock()).build();

    @AfterAll
    static void close() {
        TOLLGATE.close();
    }

    @Override
    protected Engine tollgate() {
        return TOLLGATE;
    }

    @Override
    protected Boolean recordExists(String key) {
        return null;
    }

    @Override
    protected Long storedTokens(String storeKey) {
        return null;
    }
}
