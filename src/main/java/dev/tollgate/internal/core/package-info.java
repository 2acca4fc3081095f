/**
 * Plain-Java basics every other package may use: durations, the microsecond clock, the {@link
 * dev.tollgate.internal.core.Guard} seam between a caller and the store, {@link
 * dev.tollgate.StoreUnavailableException}, the in-process skeleton {@link
 * dev.tollgate.internal.core.ExpiringMap}, and the time seams of keep-alives and waits ({@link
 * dev.tollgate.internal.core.Scheduler}, {@link dev.tollgate.internal.core.Sleeper}).
 *
 * <p>Uses only the JDK. Internal.
 */
package dev.tollgate.internal.core;
