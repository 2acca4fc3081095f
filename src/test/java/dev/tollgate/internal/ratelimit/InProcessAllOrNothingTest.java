package dev.tollgate.internal.ratelimit;

import dev.tollgate.internal.engine.Engine;
import dev.tollgate.testing.ManualClock;
import dev.tollgate.testing.TestClock;
import dev.tollgate.testing.TestSettings;
import org.junit.jupiter.api.AfterAll;

/** All or nothing in this JVM, on a clock the test drives. */
class InProcessAllOrNothingTest extends AllOrNothingContract {

    private static final ManualClock CLOCK = new ManualClock();
    private static final Engine TOLLGATE =
            Engine.builder(TestSettings.read(LIMITS)).clock(CLOCK).build();

    @AfterAll
    static void close() {
        TOLLGATE.close();
    }

    @Override
    protected Engine tollgate() {
        return TOLLGATE;
    }

    @Override
    protected TestClock clock() {
        return CLOCK;
    }

    @Override
    protected String storedTokens(String storeKey) {
        return null;
    }
}
