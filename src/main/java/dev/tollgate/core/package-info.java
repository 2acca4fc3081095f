/**
 * Plain-Java basics every other package may use: durations, the microsecond clock, the {@link
 * dev.tollgate.core.Guard} seam between a caller and the store, {@link
 * dev.tollgate.core.StoreUnavailableException}, the in-process skeleton {@link
 * dev.tollgate.core.ExpiringMap}.
 *
 * <p>Uses only the JDK. Internal, but for {@code StoreUnavailableException} (API).
 */
package dev.tollgate.core;
