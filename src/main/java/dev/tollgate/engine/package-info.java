/**
 * The composition root: {@link dev.tollgate.engine.Tollgate} builds the limiter, counters, locks and the
 * guard around Redis from typed settings. The CDI runtime, tests and tools all build it the same way.
 *
 * <p>Uses every plain package; no framework. API: {@code Tollgate}; the rest is internal.
 */
package dev.tollgate.engine;
