package dev.tollgate;

/**
 * A configuration value Tollgate cannot use. The message names the property (or the annotated method)
 * and the value, and the deployment fails with it.
 */
public class TollgateConfigException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private static final String HEADING = "Invalid Tollgate configuration:\n  ";
    private static final String SINGLE = "Invalid Tollgate configuration: ";

    public TollgateConfigException(String message) {
        super(message);
    }

    /** One exception listing every problem, one per line. */
    public static TollgateConfigException of(java.util.List<String> problems) {
        return new TollgateConfigException(HEADING + String.join("\n  ", problems));
    }

    /** The problems this exception lists: its lines, or its one problem (without the heading). */
    public java.util.List<String> problems() {
        String m = getMessage();
        if (m.startsWith(HEADING)) {
            return java.util.List.of(m.substring(HEADING.length()).split("\n  "));
        }
        return java.util.List.of(m.startsWith(SINGLE) ? m.substring(SINGLE.length()) : m);
    }

    public TollgateConfigException(String message, Throwable cause) {
        super(message, cause);
    }

    /** A value that does not parse or is out of range. */
    public static TollgateConfigException invalid(String property, String value, String expected) {
        return new TollgateConfigException(SINGLE + property + "=" + value + " (" + expected + ")");
    }
}
