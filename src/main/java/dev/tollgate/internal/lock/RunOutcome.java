package dev.tollgate.internal.lock;

/** What became of one job run. */
public enum RunOutcome {
    /** The lock was taken here and the job ran. */
    RAN,
    /** Another holder had the lock: the job was skipped here. */
    HELD_ELSEWHERE,
    /** The lock store could not be asked: the job was skipped (fail closed). */
    UNAVAILABLE
}
