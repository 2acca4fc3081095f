/**
 * Adapter: OpenTelemetry instruments and span events for decisions, degraded decisions by cause, check
 * times, the breaker, concurrency limits and locks ({@link dev.tollgate.telemetry.TollgateTelemetry}), fed
 * by the same events as the MicroProfile Metrics adapter.
 *
 * <p>Uses the OpenTelemetry API (given by Liberty's {@code mpTelemetry}), CDI injection and the plain
 * packages' listener interfaces. Internal.
 */
package dev.tollgate.telemetry;
