/**
 * Adapter: CDI and MicroProfile Config / Fault Tolerance. The interceptors of {@code @RateLimited} and
 * {@code @OncePerCluster}, the extension that validates at deployment, the runtime that holds the
 * application's {@code internal.engine.Engine} (with Fault Tolerance's breaker), and the beans applications
 * inject ({@code RateLimits}, {@code Counters}, {@code DistributedLock}).
 *
 * <p>Uses Jakarta CDI, MicroProfile, {@code metrics}, the API, the SPI and the internals. Internal: applications
 * inject the API types, never these classes.
 */
package dev.tollgate.cdi;
