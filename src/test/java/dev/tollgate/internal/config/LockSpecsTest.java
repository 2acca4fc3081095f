package dev.tollgate.internal.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tollgate.OncePerCluster;
import dev.tollgate.TollgateConfigException;
import dev.tollgate.internal.lock.LockSpec;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LockSpecsTest {

    static class Jobs {
        @OncePerCluster(name = "nightly-export", ttl = "1h", atLeast = "5m")
        void export() {}

        @OncePerCluster(ttl = "30s")
        void unnamed() {}

        @OncePerCluster(name = "long", ttl = "1m", keepAlive = true)
        void keptAlive() {}

        @OncePerCluster(name = "x", ttl = "1m", atLeast = "2m")
        void atLeastAboveTtl() {}

        @OncePerCluster(name = "x", ttl = "soon")
        void badTtl() {}

        @OncePerCluster(name = "x", ttl = "")
        void noTtl() {}

        @OncePerCluster(name = "y", ttl = "1m")
        String returnsAValue() {
            return "";
        }
    }

    private static LockSpec spec(String method, Map<String, String> config) throws NoSuchMethodException {
        var m = Jobs.class.getDeclaredMethod(method);
        return new LockSpecs(PropertySource.of(config)).of(m.getAnnotation(OncePerCluster.class), m);
    }

    private static String error(String method, Map<String, String> config) {
        return assertThrows(TollgateConfigException.class, () -> spec(method, config))
                .getMessage();
    }

    @Test
    void annotationGivesNameTtlAndAtLeast() throws Exception {
        assertEquals(
                new LockSpec("nightly-export", Duration.ofHours(1), Duration.ofMinutes(5)), spec("export", Map.of()));
    }

    @Test
    void unnamedLockIsNamedAfterClassAndMethodAndAtLeastDefaultsToZero() throws Exception {
        assertEquals(LockSpec.of("Jobs.unnamed", Duration.ofSeconds(30)), spec("unnamed", Map.of()));
    }

    @Test
    void configOverridesTtlAndAtLeast() throws Exception {
        Map<String, String> config = Map.of(
                "tollgate.locks.nightly-export.ttl", "2h",
                "tollgate.locks.nightly-export.at-least", "PT10M");
        assertEquals(
                new LockSpec("nightly-export", Duration.ofHours(2), Duration.ofMinutes(10)), spec("export", config));
    }

    @Test
    void keepAliveComesFromTheAnnotationOrItsOverride() throws Exception {
        assertEquals(LockSpec.of("long", Duration.ofMinutes(1)).keptAlive(), spec("keptAlive", Map.of()));
        assertEquals(
                LockSpec.of("long", Duration.ofMinutes(1)),
                spec("keptAlive", Map.of("tollgate.locks.long.keep-alive", "false")));
        assertEquals(
                LockSpec.of("Jobs.unnamed", Duration.ofSeconds(30)).keptAlive(),
                spec("unnamed", Map.of("tollgate.locks.Jobs.unnamed.keep-alive", " TRUE ")));
        assertEquals(
                "Invalid Tollgate configuration: tollgate.locks.long.keep-alive=yes (expected true or false)",
                error("keptAlive", Map.of("tollgate.locks.long.keep-alive", "yes")));
    }

    @Test
    void configCanSupplyAMissingTtl() throws Exception {
        assertEquals(LockSpec.of("x", Duration.ofMinutes(3)), spec("noTtl", Map.of("tollgate.locks.x.ttl", "3m")));
    }

    @Test
    void invalidValuesFailNamingTheMethodOrProperty() {
        assertEquals(
                "@OncePerCluster(ttl = \"soon\") on dev.tollgate.internal.config.LockSpecsTest$Jobs.badTtl: expected a"
                        + " duration such as 250ms, 1s, 5m, 1h or PT1S",
                error("badTtl", Map.of()));
        assertEquals(
                "Invalid Tollgate configuration: tollgate.locks.x.at-least=later (expected a duration such as"
                        + " 250ms, 1s, 5m, 1h or PT1S)",
                error("badTtl", Map.of("tollgate.locks.x.ttl", "1s", "tollgate.locks.x.at-least", "later")));
        assertEquals(
                "@OncePerCluster on dev.tollgate.internal.config.LockSpecsTest$Jobs.noTtl has no ttl: give it in the"
                        + " annotation or as tollgate.locks.x.ttl",
                error("noTtl", Map.of()));
        assertEquals(
                "@OncePerCluster(atLeast = \"2m\") on dev.tollgate.internal.config.LockSpecsTest$Jobs.atLeastAboveTtl: must be"
                        + " between 0 and the ttl (1m)",
                error("atLeastAboveTtl", Map.of()));
        assertEquals(
                "Invalid Tollgate configuration: tollgate.locks.nightly-export.ttl=0s (must be > 0)",
                error("export", Map.of("tollgate.locks.nightly-export.ttl", "0s")));
    }

    @Test
    void everyProblemOfOneJobIsReportedTogether() {
        String e = error(
                "export",
                Map.of(
                        "tollgate.locks.nightly-export.ttl", "0s",
                        "tollgate.locks.nightly-export.at-least", "PT-1S",
                        "tollgate.locks.nightly-export.keep-alive", "yes"));
        assertEquals(
                "Invalid Tollgate configuration:\n  tollgate.locks.nightly-export.keep-alive=yes (expected true or"
                        + " false)\n  tollgate.locks.nightly-export.ttl=0s (must be > 0)\n"
                        + "  tollgate.locks.nightly-export.at-least=PT-1S (must be >= 0)",
                e);
    }

    @Test
    void aBadLimitAndABadLockAreReportedInOneException() {
        List<String> problems = DeploymentCheck.problems(
                PropertySource.of(Map.of(
                        "tollgate.limits.api.capacity", "0",
                        "tollgate.limits.api.refill-tokens", "1",
                        "tollgate.locks.x.ttl", "soon",
                        "tollgate.locks.x.keep-alive", "maybe")),
                List.of(BadJob.class),
                name -> true);
        String all = TollgateConfigException.of(problems).getMessage();
        assertEquals(3, problems.size(), all);
        assertTrue(all.contains("tollgate.limits.api.capacity=0 (expected a whole number from 1 to"), all);
        assertTrue(all.contains("tollgate.locks.x.ttl=soon (expected a duration such as"), all);
        assertTrue(all.contains("tollgate.locks.x.keep-alive=maybe (expected true or false)"), all);
    }

    static class BadJob {
        @OncePerCluster(name = "x", ttl = "1m")
        public void run() {}
    }

    @Test
    void methodThatReturnsAValueIsRefused() {
        assertEquals(
                "@OncePerCluster method dev.tollgate.internal.config.LockSpecsTest$Jobs.returnsAValue must return void: it is"
                        + " skipped on every server that does not get the lock, and a skipped call has no value",
                error("returnsAValue", Map.of()));
    }
}
