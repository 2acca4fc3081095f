/**
 * Tollgate in plain Java: the facade {@link dev.tollgate.engine.Tollgate}, which hands out API types
 * only. An adapter like the CDI one: it sits above the internals it builds.
 *
 * <p>Uses the API and {@code internal.engine}; no framework.
 */
package dev.tollgate.engine;
