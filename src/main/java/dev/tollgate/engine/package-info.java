/**
 * The composition root: {@link dev.tollgate.engine.Tollgate} builds the limiter, counters, locks and the
 * guard around Redis from typed settings. The CDI runtime, tests and tools all build it the same way.
 * {@link dev.tollgate.engine.Admissions} is the one admission pipeline that the JAX-RS filter and the CDI
 * interceptor both call; each translates its {@link dev.tollgate.engine.Outcome}.
 *
 * <p>Uses every plain package; no framework. API: {@code Tollgate}; the rest is internal.
 */
package dev.tollgate.engine;
