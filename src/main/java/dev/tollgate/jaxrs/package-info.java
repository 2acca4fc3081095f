/**
 * Adapter: JAX-RS. The request filter that checks limits before a resource runs, the {@code RateLimit}
 * and {@code RateLimit-Policy} fields, and the exception mappers (a rejection: 429 or 503; a store that
 * cannot be asked: 503 with {@code Retry-After}).
 *
 * <p>Uses Jakarta REST, {@code cdi} and the plain packages. Internal.
 */
package dev.tollgate.jaxrs;
