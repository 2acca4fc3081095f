package dev.tollgate.ratelimit;

import java.util.Locale;

/** How a limit counts, as configured in {@code tollgate.limits.<name>.algorithm}. */
public enum Algorithm {
    /** {@code capacity} tokens, {@code refill-tokens} back every {@code refill-period}: bursts, then a steady rate. */
    TOKEN_BUCKET("tk"),
    /** {@code capacity} calls per {@code refill-period}, counted per calendar window: cheap, lets 2x through at a boundary. */
    FIXED_WINDOW("fw"),
    /** {@code capacity} calls in any {@code refill-period}: exact, costs memory per admitted call. */
    SLIDING_WINDOW("sw");

    private final String keyCode;

    Algorithm(String keyCode) {
        this.keyCode = keyCode;
    }

    /**
     * Its part of a store key ({@code tk}, {@code fw}, {@code sw}): each algorithm keeps its own buckets.
     * A token bucket was {@code tb} (a hash) before it became one integer ({@code bucket.lua}): a new key,
     * so servers of the earlier version, still running during a rolling upgrade, never meet a value they
     * cannot read; the new one reads the earlier key once ({@link StoreKeys#earlier}).
     */
    public String keyCode() {
        return keyCode;
    }

    /** {@code token-bucket}, {@code fixed-window}, {@code sliding-window}. */
    public String configName() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    public static Algorithm parse(String text) {
        for (Algorithm a : values()) {
            if (a.configName().equals(text.trim())) {
                return a;
            }
        }
        throw new IllegalArgumentException("expected token-bucket, fixed-window or sliding-window");
    }
}
