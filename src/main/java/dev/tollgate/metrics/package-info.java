/**
 * Adapter: MicroProfile Metrics for decisions, degraded decisions, check times, the breaker and locks.
 *
 * <p>Uses MicroProfile Metrics, CDI and the plain packages' listener interfaces. Internal.
 */
package dev.tollgate.metrics;
