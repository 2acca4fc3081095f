package dev.tollgate.lock;

/**
 * One run of a guarded job.
 *
 * @param outcome whether the job ran
 * @param value what the job returned when it ran, else {@code null}
 */
public record GuardedRun(RunOutcome outcome, Object value) {

    public GuardedRun {
        if (outcome == null) {
            throw new IllegalArgumentException("outcome must not be null");
        }
        if (outcome != RunOutcome.RAN && value != null) {
            throw new IllegalArgumentException("a skipped run has no value, but was " + value);
        }
    }

    static GuardedRun skipped(RunOutcome outcome) {
        return new GuardedRun(outcome, null);
    }

    /** Whether the job ran on this server. */
    public boolean ran() {
        return outcome == RunOutcome.RAN;
    }
}
