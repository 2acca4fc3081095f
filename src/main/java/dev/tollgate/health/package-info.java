/**
 * Adapter: MicroProfile Health. The readiness check {@code tollgate}: which store serves, whether Redis
 * answers, whether the breaker is open (always UP).
 *
 * <p>Uses MicroProfile Health, {@code cdi} and the plain packages. Internal.
 */
package dev.tollgate.health;
