package dev.tollgate.demo;

import dev.tollgate.RateLimited;
import jakarta.enterprise.context.ApplicationScoped;

/** The paid tier's greeting, the same inherited method: limit {@code demo-paid}. */
@ApplicationScoped
@RateLimited("demo-paid")
public class PaidTierGreeter extends TierGreeter {

    public PaidTierGreeter() {
        super("paid");
    }
}
