package dev.tollgate.internal.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tollgate.ConcurrencyLimited;
import dev.tollgate.OncePerCluster;
import dev.tollgate.RateCost;
import dev.tollgate.RateLimited;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DeploymentCheckTest {

    static final Map<String, String> API = Map.of(
            "tollgate.limits.api.capacity", "10",
            "tollgate.limits.api.refill-tokens", "1");

    static class Orders {
        @RateLimited("ordres")
        public void place() {}

        @RateLimited("api")
        public void list() {}
    }

    @RateLimited({})
    static class NamesNothing {}

    @RateLimited("api")
    static class Limited {
        public void list() {}
    }

    static class Job {
        @OncePerCluster(ttl = "never")
        public void export() {}
    }

    @Test
    void annotationNamingAnUnconfiguredLimitIsReportedWithTheMethod() {
        assertEquals(
                List.of("@RateLimited(\"ordres\") on " + Orders.class.getName() + "#place: no limit named 'ordres' is"
                        + " configured (set tollgate.limits.ordres.capacity and .refill-tokens)"),
                problems(API, Orders.class));
    }

    @Test
    void annotationNamingNoLimitIsReported() {
        List<String> problems = problems(API, NamesNothing.class);
        assertEquals(1, problems.size(), problems.toString());
        assertTrue(problems.get(0).contains("names no limit"), problems.get(0));
    }

    static class Export {
        @RateLimited("api")
        public void rows(@RateCost long rows) {}

        @RateLimited("api")
        public void megabytes(@RateCost double mb) {}
    }

    @Test
    void aRateCostThatIsNoWholeNumberIsReportedWithTheMethod() {
        assertEquals(
                List.of("@RateCost on parameter 0 (double) of " + Export.class.getName() + "#megabytes: expected a"
                        + " whole number (long, int, short, byte or their boxes)"),
                problems(API, Export.class));
    }

    @Test
    void configuredLimitsPass() {
        assertEquals(List.of(), problems(API, Limited.class));
    }

    @Test
    void settingsProblemsAndAnnotationProblemsAreReportedTogether() {
        List<String> problems = problems(
                Map.of(
                        "tollgate.limits.api.capcity", "10",
                        "tollgate.limits.api.refill-tokens", "1",
                        "tollgate.redis.timeout", "soon"),
                Orders.class,
                Job.class);
        String all = String.join("\n", problems);
        assertTrue(all.contains("tollgate.limits.api.capcity (unknown setting 'capcity'"), all);
        assertTrue(all.contains("tollgate.limits.api.capacity is required"), all);
        assertTrue(all.contains("tollgate.redis.timeout=soon"), all);
        assertTrue(all.contains("@RateLimited(\"ordres\") on " + Orders.class.getName() + "#place"), all);
        assertTrue(all.contains("@OncePerCluster(ttl = \"never\") on " + Job.class.getName() + ".export"), all);
        assertTrue(!all.contains("no limit named 'api'"), "api is defined, if badly: reported once, on its own");
        assertEquals(5, problems.size(), all);
    }

    @Test
    void keyResolverBeanThatDoesNotExistIsReported() {
        Map<String, String> props = Map.of(
                "tollgate.limits.api.capacity", "10",
                "tollgate.limits.api.refill-tokens", "1",
                "tollgate.limits.api.key", "tenantKeys");
        assertEquals(
                List.of("tollgate.limits.api.key=tenantKeys (expected ip, principal, global, header:<Name> or the name"
                        + " of a KeyResolver bean; no KeyResolver bean is named 'tenantKeys')"),
                DeploymentCheck.problems(PropertySource.of(props), List.of(), name -> false));
        assertEquals(List.of(), DeploymentCheck.problems(PropertySource.of(props), List.of(), "tenantKeys"::equals));
    }

    @Test
    void aBeanOfTheNameButNotAKeyResolverOrPlanResolverIsReported() {
        Map<String, String> props = Map.of(
                "tollgate.limits.api.capacity", "10",
                "tollgate.limits.api.refill-tokens", "1",
                "tollgate.limits.api.key", "demoPlans",
                "tollgate.limits.api.plans", "free:api-free",
                "tollgate.limits.api.plan-resolver", "tenantKeys",
                "tollgate.limits.api-free.capacity", "5",
                "tollgate.limits.api-free.refill-tokens", "1");
        // demoPlans is a PlanResolver and tenantKeys a KeyResolver: each is named where the other is wanted.
        DeploymentCheck.Beans beans = new DeploymentCheck.Beans(
                List.of(),
                (name, type) -> name.equals("demoPlans") && type == dev.tollgate.spi.PlanResolver.class
                        || name.equals("tenantKeys") && type == dev.tollgate.spi.KeyResolver.class);
        List<String> problems = DeploymentCheck.problems(PropertySource.of(props), beans);
        assertEquals(2, problems.size(), problems::toString);
        assertTrue(problems.get(0).endsWith("no KeyResolver bean is named 'demoPlans')"), problems::toString);
        assertTrue(problems.get(1).endsWith("no PlanResolver bean is named 'tenantKeys')"), problems::toString);
        props = new java.util.HashMap<>(props);
        props.put("tollgate.limits.api.key", "tenantKeys");
        props.put("tollgate.limits.api.plan-resolver", "demoPlans");
        assertEquals(List.of(), DeploymentCheck.problems(PropertySource.of(props), beans));
    }

    static class Reports {
        @ConcurrencyLimited("reprots")
        public void build() {}

        @ConcurrencyLimited("reports")
        public void list() {}
    }

    @Test
    void concurrencyLimitsAreCheckedWithEveryOtherProblemInOneList() {
        List<String> problems = problems(
                Map.of(
                        "tollgate.concurrency.reports.max-in-flight", "4",
                        "tollgate.concurrency.uploads.max-in-flight", "none",
                        "tollgate.concurrency.uploads.lease", "50ms",
                        "tollgate.concurrency.uploads.maxInFlight", "3",
                        "tollgate.concurrency.exports.key", "exportKeys",
                        "tollgate.redis.timeout", "soon"),
                Reports.class);
        assertEquals(
                List.of(
                        "tollgate.redis.timeout=soon (expected a duration from 1ms to 1m such as 250ms)",
                        "tollgate.concurrency.uploads.maxInFlight (unknown setting 'maxInFlight'; a concurrency"
                                + " limit takes fail-open, key, lease, max-in-flight)",
                        "tollgate.concurrency.exports.max-in-flight is required (a whole number > 0)",
                        "tollgate.concurrency.uploads.max-in-flight=none (expected a whole number > 0)",
                        "tollgate.concurrency.uploads.lease=50ms (expected a duration from 100ms to 1d such as 10s)",
                        "@ConcurrencyLimited(\"reprots\") on " + Reports.class.getName() + "#build: no concurrency"
                                + " limit named 'reprots' is configured (set tollgate.concurrency.reprots.max-in-flight)"),
                problems);
    }

    @Test
    void concurrencyKeyResolverThatDoesNotExistIsReported() {
        Map<String, String> props = Map.of(
                "tollgate.concurrency.reports.max-in-flight", "4", "tollgate.concurrency.reports.key", "tenantKeys");
        assertEquals(
                List.of("tollgate.concurrency.reports.key=tenantKeys (expected ip, principal, global, header:<Name>"
                        + " or the name of a KeyResolver bean; no KeyResolver bean is named 'tenantKeys')"),
                DeploymentCheck.problems(PropertySource.of(props), List.of(), name -> false));
    }

    static class Partner {
        @RateLimited(value = "api", maxWait = "2s")
        public void call() {}

        @RateLimited(value = "api", maxWait = "soon")
        public void badWait() {}

        @RateLimited(
                value = {"api", "window", "quota"},
                maxWait = "1s")
        public void cannotOwe() {}
    }

    @jakarta.ws.rs.Path("/partner")
    static class PartnerResource {
        @jakarta.ws.rs.GET
        @RateLimited(value = "api", maxWait = "1s")
        public String get() {
            return "";
        }
    }

    static final Map<String, String> WAITABLE = Map.of(
            "tollgate.limits.api.capacity", "10",
            "tollgate.limits.api.refill-tokens", "1",
            "tollgate.limits.window.algorithm", "fixed-window",
            "tollgate.limits.window.capacity", "10",
            "tollgate.limits.quota.capacity", "10",
            "tollgate.limits.quota.refill-tokens", "0",
            "tollgate.limits.quota.persist", "true");

    @Test
    void maxWaitProblemsNameTheMethodAndTheLimit() {
        String partner = Partner.class.getName();
        assertEquals(
                List.of(
                                "@RateLimited(maxWait = \"soon\") on " + partner
                                        + "#badWait: expected a duration such as" + " 250ms, 1s, 5m, 1h or PT1S",
                                "@RateLimited(maxWait = \"1s\") on " + partner
                                        + "#cannotOwe: limit 'window' is a fixed-window"
                                        + " limit; only a token bucket that refills can be waited for",
                                "@RateLimited(maxWait = \"1s\") on " + partner
                                        + "#cannotOwe: limit 'quota' is a quota that"
                                        + " never refills; only a token bucket that refills can be waited for")
                        .stream()
                        .sorted()
                        .toList(),
                problems(WAITABLE, Partner.class).stream().sorted().toList());
    }

    @Test
    void maxWaitOnAJaxRsResourceMethodNeedsAllowWait() {
        assertEquals(
                List.of("@RateLimited(maxWait = \"1s\") on " + PartnerResource.class.getName() + "#get: a JAX-RS"
                        + " resource method would park its request thread while it waits; wait in the business method"
                        + " it calls, or set tollgate.http.allow-wait=true"),
                problems(WAITABLE, PartnerResource.class));
        Map<String, String> allowed = new java.util.HashMap<>(WAITABLE);
        allowed.put("tollgate.http.allow-wait", "true");
        assertEquals(List.of(), problems(allowed, PartnerResource.class));
    }

    private static List<String> problems(Map<String, String> properties, Class<?>... beans) {
        return DeploymentCheck.problems(PropertySource.of(properties), List.of(beans), name -> true);
    }

    @Test
    void aLimitTheEnvironmentSpelledOtherwiseIsPointedOut() {
        List<String> problems = problems(
                Map.of("TOLLGATE_LIMITS_SEARCH_API_CAPACITY", "10", "TOLLGATE_LIMITS_SEARCH_API_REFILL_TOKENS", "1"),
                Search.class);
        assertEquals(
                List.of("@RateLimited(\"search-api\") on " + Search.class.getName() + "#find: no limit named"
                        + " 'search-api' is configured (set tollgate.limits.search-api.capacity and .refill-tokens);"
                        + " environment variables TOLLGATE_LIMITS_SEARCH_API_* define 'search_api': to spell it"
                        + " 'search-api', name it in tollgate.http.limits or give one of its settings in a properties"
                        + " file"),
                problems);
    }

    static class Search {
        @RateLimited("search-api")
        public void find() {}
    }
}
