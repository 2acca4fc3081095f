package dev.tollgate;

/**
 * A configuration value Tollgate cannot use. The message names the property (or the annotated method)
 * and the value, and the deployment fails with it.
 */
public class TollgateConfigException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public TollgateConfigException(String message) {
        super(message);
    }

    public TollgateConfigException(String message, Throwable cause) {
        super(message, cause);
    }

    /** A value that does not parse or is out of range. */
    public static TollgateConfigException invalid(String property, String value, String expected) {
        return new TollgateConfigException(
                "Invalid Tollgate configuration: " + property + "=" + value + " (" + expected + ")");
    }
}
