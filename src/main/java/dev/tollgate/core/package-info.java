/**
 * Plain-Java basics every other package may use: durations, the microsecond clock, the {@link
 * dev.tollgate.core.Guard} seam between a caller and the store, {@link
 * dev.tollgate.core.StoreUnavailableException}, the in-process skeleton {@link
 * dev.tollgate.core.ExpiringMap}, and the time seams of keep-alives and waits ({@link
 * dev.tollgate.core.Scheduler}, {@link dev.tollgate.core.Sleeper}).
 *
 * <p>Uses only the JDK. Internal, but for {@code StoreUnavailableException} (API).
 */
package dev.tollgate.core;
