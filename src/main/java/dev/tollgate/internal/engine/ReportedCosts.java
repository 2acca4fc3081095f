package dev.tollgate.internal.engine;

import dev.tollgate.CostReport;
import dev.tollgate.internal.ratelimit.Admission;
import java.util.concurrent.Callable;
import java.util.function.Predicate;

/**
 * An admitted business method's call, run with its {@link CostReport} open: when it ends, its admission
 * is settled by its outcome ({@link Admission#settle(boolean)}) and, when the method reported its
 * actual cost, at that cost ({@link Admission#settle(boolean, long)}), on success and failure alike.
 */
public final class ReportedCosts {

    private ReportedCosts() {}

    /**
     * Runs {@code method} for {@code admission}; null for a call that spent nothing, whose report is
     * ignored.
     *
     * @param fails whether an exception the method threw makes the call a failure
     */
    public static <T> T run(Admission admission, Predicate<Throwable> fails, Callable<T> method) throws Exception {
        boolean failed = false;
        try (CostReport report = CostReport.open()) {
            try {
                return method.call();
            } catch (Exception | Error e) {
                failed = fails.test(e);
                throw e;
            } finally {
                if (admission != null) {
                    admission.settle(failed, report::actual);
                }
            }
        }
    }
}
