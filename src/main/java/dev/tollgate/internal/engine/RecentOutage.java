package dev.tollgate.internal.engine;

import java.time.Duration;
import java.time.Instant;

/**
 * An outage this server saw ({@link Tollgate#recentOutages()}): from the first decision made without
 * Redis because it could not be asked, to the next decision Redis answered.
 *
 * @param start when the first such decision was made
 * @param duration until the next decision Redis answered; so far, while it lasts
 * @param degraded decisions made without Redis meanwhile, every cause counted
 * @param cause the first decision's cause ({@code timeout}, {@code refused}, {@code breaker-open}, {@code
 *     auth})
 * @param ongoing whether no decision has been answered by Redis since
 */
public record RecentOutage(Instant start, Duration duration, long degraded, String cause, boolean ongoing) {}
