package dev.tollgate.demo;

import dev.tollgate.CostReport;
import dev.tollgate.RateCost;
import dev.tollgate.RateKey;
import dev.tollgate.RateLimited;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * Work whose cost is known only when it ends, reported from inside the annotated method ({@link
 * CostReport}): the interceptor spends the estimate up front and settles at the report when the method
 * returns.
 */
@ApplicationScoped
public class ReportedWork {

    /** {@code demo-settle}: {@code estimate} up front, settled at {@code actual}, as an LLM call at its tokens. */
    @RateLimited("demo-settle")
    public String complete(@RateKey String customer, @RateCost long estimate, long actual) {
        // ... the work, whose cost is known only now ...
        CostReport.report(actual);
        return "estimated " + estimate + ", reported " + actual + "\n";
    }

    /**
     * Under the API key's plan ({@code demo-plan}, one request) and its monthly quota ({@code
     * demo-monthly}) at once, all or nothing; the quota is settled at {@code units}, the rate stays one
     * request.
     */
    @RateLimited({"demo-plan", "demo-monthly"})
    public String meter(long units) {
        CostReport.report("demo-monthly", units);
        return "metered " + units + "\n";
    }
}
