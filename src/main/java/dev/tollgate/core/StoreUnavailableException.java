package dev.tollgate.core;

/** The store could not be asked or did not answer: the caller makes the degraded decision. */
public class StoreUnavailableException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public StoreUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
