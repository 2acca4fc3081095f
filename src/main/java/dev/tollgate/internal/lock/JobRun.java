package dev.tollgate.internal.lock;

/**
 * One run of a {@code @OncePerCluster} job: whether it ran here, and what it returned.
 *
 * @param outcome whether the job ran
 * @param value what the job returned when it ran, else {@code null}
 */
public record JobRun(RunOutcome outcome, Object value) {

    public JobRun {
        if (outcome == null) {
            throw new IllegalArgumentException("outcome must not be null");
        }
        if (outcome != RunOutcome.RAN && value != null) {
            throw new IllegalArgumentException("a skipped run has no value, but was " + value);
        }
    }

    static JobRun skipped(RunOutcome outcome) {
        return new JobRun(outcome, null);
    }

    /** Whether the job ran on this server. */
    public boolean ran() {
        return outcome == RunOutcome.RAN;
    }
}
