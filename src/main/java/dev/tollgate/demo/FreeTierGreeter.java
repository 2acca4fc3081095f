package dev.tollgate.demo;

import dev.tollgate.RateLimited;
import jakarta.enterprise.context.ApplicationScoped;

/** The free tier's greeting: limit {@code demo-free}. */
@ApplicationScoped
@RateLimited("demo-free")
public class FreeTierGreeter extends TierGreeter {

    public FreeTierGreeter() {
        super("free");
    }
}
