/**
 * The demo service in the WAR: the same greeting behind each of Tollgate's entry points. Not in the
 * library jar.
 *
 * <p>Uses the API only, like an application; but {@link dev.tollgate.demo.HandWrittenLimit}, the check an
 * application would write by hand instead ({@code GET /demo/by-hand}, off by default: the experiments'
 * baseline), which sends Tollgate's own script through {@code internal.redis}, the one package that may
 * name Jedis.
 */
package dev.tollgate.demo;
