/**
 * What applications plug into Tollgate: {@link dev.tollgate.spi.KeyResolver} (a client key of one's own,
 * {@code key=<bean name>}), {@link dev.tollgate.spi.PlanResolver} (a caller's plan, {@code
 * plan-resolver=<bean name>}) and {@link dev.tollgate.spi.CallerInfo}, what both are given about the call.
 *
 * <p>Uses only the API ({@code dev.tollgate}); nothing internal, no framework, no Redis client.
 */
package dev.tollgate.spi;
