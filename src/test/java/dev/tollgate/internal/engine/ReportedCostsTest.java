package dev.tollgate.internal.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.tollgate.CostReport;
import dev.tollgate.internal.config.MethodLimits;
import dev.tollgate.internal.ratelimit.Admission;
import dev.tollgate.testing.RedisServer;
import dev.tollgate.testing.StoredBucket;
import dev.tollgate.testing.TestSettings;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;

/**
 * Settling a {@code @RateLimited} method's reported cost ({@link CostReport}) on a real Redis, through
 * the path the interceptor takes: the one admission pipeline at the configured cost (the estimate, 1,000),
 * the method run by {@link ReportedCosts}, the buckets read back.
 */
class ReportedCostsTest {

    @RegisterExtension
    static final RedisServer redis = RedisServer.shared();

    private static Engine tollgate;

    @BeforeAll
    static void build() {
        tollgate = Engine.build(TestSettings.read(
                "tollgate.redis.url", redis.url(),
                "tollgate.redis.timeout", "5s",
                "tollgate.limits.llm.capacity", "10000",
                "tollgate.limits.llm.refill-tokens", "0",
                "tollgate.limits.llm.persist", "true",
                "tollgate.limits.llm.cost", "1000",
                "tollgate.limits.month.algorithm", "fixed-window",
                "tollgate.limits.month.capacity", "50000",
                "tollgate.limits.month.refill-period", "36525d",
                "tollgate.limits.month.cost", "1000",
                "tollgate.limits.planned.capacity", "10",
                "tollgate.limits.planned.refill-tokens", "0",
                "tollgate.limits.planned.persist", "true",
                "tollgate.limits.planned.plans", "gold:planned-gold",
                "tollgate.limits.planned.plan-resolver", "plans",
                "tollgate.limits.planned-gold.capacity", "10000",
                "tollgate.limits.planned-gold.refill-tokens", "0",
                "tollgate.limits.planned-gold.persist", "true",
                "tollgate.limits.planned-gold.cost", "1000"));
    }

    @AfterAll
    static void close() {
        tollgate.close();
    }

    private static final MethodLimits LLM = new MethodLimits(List.of("llm"), -1);
    private static final MethodLimits BOTH = new MethodLimits(List.of("llm", "month"), -1);

    private static <T> T call(MethodLimits limits, String client, Callable<T> method) throws Exception {
        Outcome o = new Admissions(tollgate)
                .call(limits, Cost.CONFIGURED, name -> tollgate.charge(name, client, null), name -> false);
        Admission admission = assertInstanceOf(Outcome.Admitted.class, o).admission();
        return ReportedCosts.run(admission, limits::fails, method);
    }

    private static long tokens(String limit, String client) {
        try (Jedis j = redis.admin()) {
            return StoredBucket.read(j, tollgate.limiter().keys().of(tollgate.limit(limit), client))
                    .wholeTokens();
        }
    }

    private static Callable<String> reporting(long actual) {
        return () -> {
            CostReport.report(actual);
            return "done";
        };
    }

    @Test
    void aMethodEstimatedAt1000Reporting1342LeavesTheBucket1342Lower() throws Exception {
        String client = UUID.randomUUID().toString();
        assertEquals("done", call(LLM, client, reporting(1342)));
        assertEquals(10000 - 1342, tokens("llm", client));
    }

    @Test
    void aMethodEstimatedAt1000Reporting200LeavesTheBucket200Lower() throws Exception {
        String client = UUID.randomUUID().toString();
        call(LLM, client, reporting(200));
        assertEquals(10000 - 200, tokens("llm", client));
    }

    @Test
    void aMethodThatReportsNothingKeepsTheEstimate() throws Exception {
        String client = UUID.randomUUID().toString();
        call(LLM, client, () -> "done");
        assertEquals(9000, tokens("llm", client));
    }

    /** Both limits the call charged are settled at the reported cost: the bucket and the window. */
    @Test
    void everyLimitTheCallChargedIsSettled() throws Exception {
        String client = UUID.randomUUID().toString();
        call(BOTH, client, reporting(1342));
        assertEquals(10000 - 1342, tokens("llm", client));
        assertEquals(50000 - 1342 - 1000, tollgate.check("month", client).remaining(), "the check costs 1,000 too");
    }

    /** A cost reported for one limit by name settles that one; the other keeps its estimate. */
    @Test
    void aReportForOneLimitSettlesThatLimitOnly() throws Exception {
        String client = UUID.randomUUID().toString();
        call(BOTH, client, () -> {
            CostReport.report("month", 200);
            return "done";
        });
        assertEquals(9000, tokens("llm", client));
        assertEquals(50000 - 200 - 1000, tollgate.check("month", client).remaining());
    }

    /** A plan's limit is settled under the plan's policy: its bucket, its capacity. */
    @Test
    void aPlansLimitIsSettledUnderThePlan() throws Exception {
        String client = UUID.randomUUID().toString();
        MethodLimits planned = new MethodLimits(List.of("planned"), -1);
        Outcome o = new Admissions(tollgate)
                .call(planned, Cost.CONFIGURED, name -> tollgate.charge(name, client, "gold"), name -> false);
        ReportedCosts.run(assertInstanceOf(Outcome.Admitted.class, o).admission(), planned::fails, reporting(1342));
        Outcome next = new Admissions(tollgate)
                .call(planned, Cost.CONFIGURED, name -> tollgate.charge(name, client, "gold"), name -> false);
        Admission a = assertInstanceOf(Outcome.Admitted.class, next).admission();
        assertEquals(10000 - 1342 - 1000, a.decision(0).remaining());
    }

    /** A method that throws after reporting is settled at what it reported; the exception still goes out. */
    @Test
    void aMethodThatThrowsAfterReportingIsSettledAtItsReport() {
        String client = UUID.randomUUID().toString();
        assertThrows(
                IllegalStateException.class,
                () -> call(LLM, client, () -> {
                    CostReport.report(200);
                    throw new IllegalStateException("the model failed after 200 tokens");
                }));
        assertEquals(10000 - 200, tokens("llm", client));
    }

    /** A negative or absurd report is refused as a settle is, and the call keeps its estimate. */
    @Test
    void aHostileReportIsRefusedAndTheEstimateStays() throws Exception {
        String client = UUID.randomUUID().toString();
        call(LLM, client, () -> {
            IllegalArgumentException bad = assertThrows(IllegalArgumentException.class, () -> CostReport.report(-5));
            assertEquals(
                    "a settled cost is a whole number from 0 to 9007199254740992 (2^53), but was -5", bad.getMessage());
            assertThrows(IllegalArgumentException.class, () -> CostReport.report((1L << 53) + 1));
            return "done";
        });
        assertEquals(9000, tokens("llm", client));
    }

    @Test
    void aReportOutsideARateLimitedCallIsRefused() {
        assertThrows(IllegalStateException.class, () -> CostReport.report(1));
    }

    /** Nested calls: each report goes to the innermost call, the outer keeps its own. */
    @Test
    void nestedCallsSettleTheirOwnReports() throws Exception {
        String outer = UUID.randomUUID().toString();
        String inner = UUID.randomUUID().toString();
        call(LLM, outer, () -> {
            call(LLM, inner, reporting(200));
            CostReport.report(1342);
            return "done";
        });
        assertEquals(10000 - 200, tokens("llm", inner));
        assertEquals(10000 - 1342, tokens("llm", outer));
    }
}
