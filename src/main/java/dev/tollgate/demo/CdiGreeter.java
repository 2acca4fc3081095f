package dev.tollgate.demo;

import dev.tollgate.RateLimited;
import jakarta.enterprise.context.ApplicationScoped;

/** A CDI bean with a limited business method. */
@ApplicationScoped
public class CdiGreeter {

    @RateLimited("demo-cdi")
    public String greet() {
        return "hello from a CDI bean\n";
    }
}
