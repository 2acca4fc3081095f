package dev.tollgate.internal.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tollgate.TollgateConfigException;
import dev.tollgate.internal.ratelimit.Plans;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A limit's plans: read from properties and environment variables, every bad setting named at deploy. */
class PlanSettingsTest {

    private static Map<String, String> limits() {
        Map<String, String> m = new LinkedHashMap<>();
        for (String l : List.of("api", "api-free", "api-pro")) {
            m.put("tollgate.limits." + l + ".capacity", "5");
            m.put("tollgate.limits." + l + ".refill-tokens", "5");
            m.put("tollgate.limits." + l + ".refill-period", "1m");
        }
        return m;
    }

    private static TollgateSettings read(String... kv) {
        Map<String, String> m = limits();
        for (int i = 0; i < kv.length; i += 2) {
            m.put(kv[i], kv[i + 1]);
        }
        return SettingsReader.read(PropertySource.of(m));
    }

    private static String error(String... kv) {
        return assertThrows(TollgateConfigException.class, () -> read(kv)).getMessage();
    }

    @Test
    void plansNameTheLimitWhosePolicyEachPlanSpendsUnder() {
        Plans p = read(
                        "tollgate.limits.api.plans",
                        "free:api-free, pro:api-pro",
                        "tollgate.limits.api.plan-resolver",
                        "tier")
                .plans("api")
                .orElseThrow();
        assertEquals(new Plans("tier", Map.of("free", "api-free", "pro", "api-pro")), p);
        assertEquals("api-pro", p.limitOf("pro").orElseThrow());
        assertTrue(p.limitOf("gold").isEmpty());
        assertTrue(p.limitOf(null).isEmpty());
    }

    @Test
    void plansComeFromEnvironmentVariables() {
        Plans p = read("TOLLGATE_LIMITS_API_PLANS", "free:api-free", "TOLLGATE_LIMITS_API_PLAN_RESOLVER", "tier")
                .plans("api")
                .orElseThrow();
        assertEquals(Map.of("free", "api-free"), p.limitByPlan());
        assertEquals("tier", p.resolver());
    }

    @Test
    void aPlanNamingAnUnconfiguredLimitFailsNamingThePropertyAndValue() {
        String e = error("tollgate.limits.api.plans", "free:api-gratis", "tollgate.limits.api.plan-resolver", "tier");
        assertTrue(
                e.contains("tollgate.limits.api.plans=free:api-gratis (plan 'free' names limit 'api-gratis', which is"
                        + " not configured"),
                e);
    }

    @Test
    void badlyFormedPlansFail() {
        assertTrue(error("tollgate.limits.api.plans", "free", "tollgate.limits.api.plan-resolver", "tier")
                .contains(
                        "tollgate.limits.api.plans=free (expected <plan>:<limit>, ...; 'free' is not <plan>:<limit>)"));
        assertTrue(error("tollgate.limits.api.plans", "a:api-free,a:api-pro", "tollgate.limits.api.plan-resolver", "t")
                .contains("plan 'a' is named twice"));
        assertTrue(error("tollgate.limits.api.plans", "fr ee:api-free", "tollgate.limits.api.plan-resolver", "t")
                .contains("plan 'fr ee' is not 1-64 letters"));
    }

    @Test
    void plansAndTheirResolverComeTogether() {
        assertTrue(error("tollgate.limits.api.plans", "free:api-free")
                .contains("tollgate.limits.api.plan-resolver is required with tollgate.limits.api.plans"));
        assertTrue(error("tollgate.limits.api.plan-resolver", "tier")
                .contains("tollgate.limits.api.plans is required with tollgate.limits.api.plan-resolver"));
        assertTrue(error(
                        "tollgate.limits.api.plans", "free:api-free", "tollgate.limits.api.plan-resolver", "not a bean")
                .contains("tollgate.limits.api.plan-resolver=not a bean (expected the name of a PlanResolver bean)"));
    }

    @Test
    void aPlanOfAnotherAlgorithmFails() {
        String e = error(
                "tollgate.limits.api-fw.algorithm", "fixed-window",
                "tollgate.limits.api-fw.capacity", "5",
                "tollgate.limits.api.plans", "free:api-fw",
                "tollgate.limits.api.plan-resolver", "tier");
        assertTrue(
                e.contains("plan 'free' names limit 'api-fw', a fixed-window limit; 'api' is a token-bucket limit"), e);
    }

    @Test
    void aResolverBeanThatDoesNotExistFailsTheDeployment() {
        Map<String, String> m = limits();
        m.put("tollgate.limits.api.plans", "free:api-free");
        m.put("tollgate.limits.api.plan-resolver", "tier");
        List<String> problems = DeploymentCheck.problems(PropertySource.of(m), List.of(), name -> false);
        assertEquals(
                List.of("tollgate.limits.api.plan-resolver=tier (expected the name of a PlanResolver bean; no"
                        + " PlanResolver bean is named 'tier')"),
                problems);
    }
}
