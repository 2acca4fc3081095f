package dev.tollgate.internal.lock;

/** Where the outcome of each job run is counted, per lock; the runner knows nothing of MicroProfile. */
public interface LockMetrics {

    /** Counts nothing. */
    LockMetrics NONE = new LockMetrics() {
        @Override
        public void acquired(String lock) {}

        @Override
        public void heldElsewhere(String lock) {}

        @Override
        public void unavailable(String lock) {}
    };

    /** This server took the lock and ran the job. */
    void acquired(String lock);

    /** Another server held the lock; the job was skipped here. */
    void heldElsewhere(String lock);

    /** The lock store could not be asked; the job was skipped here (fail closed). */
    void unavailable(String lock);
}
