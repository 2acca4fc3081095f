package dev.tollgate;

import jakarta.ejb.ApplicationException;

/**
 * A client key (whose bucket a call spends from: a header's value, a {@link RateKey} argument, a
 * resolver's answer) longer than Tollgate takes: the call is refused before any bucket is asked, so
 * it neither spends nor passes. The JAX-RS filter answers {@code 431} for a header key and {@code 400}
 * for any other; the interceptor throws this, which a JAX-RS exception mapper answers with {@code 400}.
 * The message gives the limit and the lengths, never the key (it may be a credential).
 *
 * <p>An EJB application exception: it reaches the caller as it is, and does not roll the caller's
 * transaction back, since the method never ran.
 */
@ApplicationException(rollback = false)
public class ClientKeyTooLongException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    private final String limitName;
    private final int length;
    private final int maxLength;

    public ClientKeyTooLongException(String limitName, int length, int maxLength) {
        super("limit '" + limitName + "': the client key is " + length + " characters long, more than the " + maxLength
                + " Tollgate takes; the call was refused");
        this.limitName = limitName;
        this.length = length;
        this.maxLength = maxLength;
    }

    /** The limit whose client key it was. */
    public String limitName() {
        return limitName;
    }

    /** The key's length in characters. */
    public int length() {
        return length;
    }

    /** The longest key Tollgate takes. */
    public int maxLength() {
        return maxLength;
    }
}
