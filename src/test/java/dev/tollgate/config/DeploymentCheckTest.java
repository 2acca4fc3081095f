package dev.tollgate.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tollgate.OncePerCluster;
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
                        + " of a KeyResolver bean; no bean is named 'tenantKeys')"),
                DeploymentCheck.problems(PropertySource.of(props), List.of(), name -> false));
        assertEquals(List.of(), DeploymentCheck.problems(PropertySource.of(props), List.of(), "tenantKeys"::equals));
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
