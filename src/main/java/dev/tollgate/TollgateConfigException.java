package dev.tollgate;

/**
 * A configuration value Tollgate cannot use. The message names the property (or the annotated method)
 * and the value, and the deployment fails with it.
 */
public class TollgateConfigException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private static final String HEADING = "Invalid Tollgate configuration:\n  ";

    public TollgateConfigException(String message) {
        super(message);
    }

    /** One exception listing every problem, one per line. */
    public static TollgateConfigException of(java.util.List<String> problems) {
        return new TollgateConfigException(HEADING + String.join("\n  ", problems));
    }

    /** The problems this exception lists: its lines, or its whole message when it is a single one. */
    public java.util.List<String> problems() {
        String m = getMessage();
        return m.startsWith(HEADING)
                ? java.util.List.of(m.substring(HEADING.length()).split("\n  "))
                : java.util.List.of(m);
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
