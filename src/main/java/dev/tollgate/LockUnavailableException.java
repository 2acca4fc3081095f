package dev.tollgate;

/** The lock's store could not be asked, so whether the lock is (still) held is unknown. */
public class LockUnavailableException extends StoreUnavailableException {

    private static final long serialVersionUID = 1L;

    private final String lockName;

    public LockUnavailableException(String lockName, Throwable cause) {
        super("lock '" + lockName + "': the lock store could not be asked", cause);
        this.lockName = lockName;
    }

    /** The lock concerned. */
    public String lockName() {
        return lockName;
    }
}
