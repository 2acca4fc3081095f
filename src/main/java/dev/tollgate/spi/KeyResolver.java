package dev.tollgate.spi;

/**
 * Computes a client key for limits configured with {@code key=<bean name>}: implement it in a CDI bean
 * with {@code @Named("<bean name>")}. The key is hashed before it reaches the store.
 */
@FunctionalInterface
public interface KeyResolver {

    /** The key whose bucket this call spends from; never null. */
    String resolve(CallerInfo caller);
}
