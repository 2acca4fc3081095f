/**
 * The composition root, internal: {@link dev.tollgate.internal.engine.Engine} builds the limiter, counters,
 * locks and the guard around Redis from typed settings. The CDI runtime, tests and tools build it; plain
 * Java gets it behind the facade {@link dev.tollgate.engine.Tollgate}.
 *
 * <p>Uses every internal package; no framework.
 */
package dev.tollgate.internal.engine;
