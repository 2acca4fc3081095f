package dev.tollgate.internal.core;

/**
 * How many servers share the limits now, as this server last learned it: at least 1. The live-servers
 * heartbeat implements it; leases size their slices by it, and the local fallback divides a limit by it
 * during an outage (then it is the count known when Redis went away).
 */
@FunctionalInterface
public interface ServerCount {

    /** A server that knows of no other: the whole limit is its share. */
    ServerCount ONE = () -> 1;

    /** The live count, at least 1. */
    int live();
}
