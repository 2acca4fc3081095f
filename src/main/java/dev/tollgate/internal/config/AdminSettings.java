package dev.tollgate.internal.config;

import java.util.regex.Pattern;

/**
 * The operator resource ({@code /tollgate/admin}) and console ({@code /tollgate/console}).
 *
 * @param enabled {@code tollgate.admin.enabled}: off unless said, so nothing is open by default
 * @param role {@code tollgate.admin.role}: the security role a caller must be in
 */
public record AdminSettings(boolean enabled, String role) {

    /** The default role. */
    public static final String DEFAULT_ROLE = "tollgate-admin";

    static final Pattern ROLE = Pattern.compile("[A-Za-z0-9_.-]{1,64}");

    /** The rule of {@link #ROLE}. */
    static final String ROLE_RULE = "1-64 letters, digits, '_', '.' or '-'";

    public AdminSettings {
        if (role == null || !ROLE.matcher(role).matches()) {
            throw new IllegalArgumentException("role must be " + ROLE_RULE + ", but was '" + role + "'");
        }
    }

    /** Off. */
    public static AdminSettings disabled() {
        return new AdminSettings(false, DEFAULT_ROLE);
    }
}
