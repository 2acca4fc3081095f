/**
 * Adapter: MicroProfile Metrics for decisions, degraded decisions, check times, the breaker, locks and the live servers.
 *
 * <p>Uses MicroProfile Metrics, CDI and the plain packages' listener interfaces. Internal.
 */
package dev.tollgate.metrics;
