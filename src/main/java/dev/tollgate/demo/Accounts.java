package dev.tollgate.demo;

import dev.tollgate.CountOn;
import dev.tollgate.RateCost;
import dev.tollgate.RateLimited;
import jakarta.enterprise.context.ApplicationScoped;

/** The demo's cost and outcome counting inside business methods (the interceptor, not the JAX-RS filter). */
@ApplicationScoped
public class Accounts {

    /** Costs as many tokens of {@code demo-export} as rows are exported. */
    @RateLimited("demo-export")
    public long export(@RateCost long rows) {
        return rows;
    }

    /** Costs as many entries of {@code demo-export-window}, a sliding window, as rows are exported. */
    @RateLimited("demo-export-window")
    public long exportWindow(@RateCost long rows) {
        return rows;
    }

    /** Counts failed logins only: a wrong password is an {@link IllegalArgumentException}. */
    @RateLimited(value = "demo-login", countOn = CountOn.FAILURE, failOn = IllegalArgumentException.class)
    public void login(boolean ok) {
        if (!ok) {
            throw new IllegalArgumentException("wrong password");
        }
    }
}
