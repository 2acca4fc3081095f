package dev.tollgate.jaxrs;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tollgate.internal.engine.Engine;
import dev.tollgate.testing.TestSettings;
import org.junit.jupiter.api.Test;

/** The console's JSON of what each limit decided lately: one array of counts per slot, in the outcomes' order. */
class AdminJsonTest {

    @Test
    void eachSlotIsItsCountsInTheOrderOfTheOutcomes() {
        try (Engine t = Engine.build(TestSettings.read(
                "tollgate.limits.api.capacity", "2",
                "tollgate.limits.api.refill-tokens", "1",
                "tollgate.limits.api.refill-period", "1h",
                "tollgate.limits.api.key", "global",
                "tollgate.limits.api.shadow.capacity", "1",
                "tollgate.limits.api.shadow.refill-tokens", "1",
                "tollgate.limits.api.shadow.refill-period", "1h",
                "tollgate.admin.enabled", "true"))) {
            for (int i = 0; i < 3; i++) {
                t.check("api", "alice");
            }
            String json = AdminJson.state(t);
            assertTrue(
                    json.contains(",\"outcomes\":[\"allowed\",\"denied\",\"degraded\",\"would_deny\",\"held\"],"),
                    json);
            String idle = "[0,0,0,0,0],".repeat(29);
            assertTrue(json.contains("\"recent\":[" + idle + "[1,0,0,2,0]]}"), "the shadow candidate: " + json);
            assertTrue(json.contains("\"recent\":[" + idle + "[2,1,0,0,0]]},"), "the limit: " + json);
        }
    }
}
