package dev.tollgate.internal.core;

/** Failures as one log line: the class and message of what went wrong first, never a stack trace. */
public final class Failures {

    private Failures() {}

    /** {@code SimpleName: message} of the root cause of {@code failure}. */
    public static String describe(Throwable failure) {
        Throwable root = failure;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root.getClass().getSimpleName() + (root.getMessage() == null ? "" : ": " + root.getMessage());
    }
}
