package dev.tollgate.demo;

/**
 * One greeting that sibling beans inherit, each under its own type's {@code @RateLimited}: the limit
 * applies by the bean's class, not by the method they share ({@code /demo/tier/{tier}}).
 */
public abstract class TierGreeter {

    private final String tier;

    protected TierGreeter(String tier) {
        this.tier = tier;
    }

    public String greet() {
        return "hello, " + tier + " tier\n";
    }
}
