/**
 * Adapter: outbound calls. {@link dev.tollgate.restclient.PacingFilter}, the JAX-RS client filter that paces
 * calls to a rate-limited partner across all servers by what the partner announces, for MicroProfile Rest
 * Client and plain JAX-RS clients alike.
 *
 * <p>Uses the Jakarta REST client API, CDI (to find the application's Tollgate), {@code cdi} and the plain
 * packages. {@code PacingFilter} is API; the rest is internal.
 */
package dev.tollgate.restclient;
