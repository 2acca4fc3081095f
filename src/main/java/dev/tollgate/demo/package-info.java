/**
 * The demo service in the WAR: the same greeting behind each of Tollgate's entry points. Not in the
 * library jar.
 *
 * <p>Uses the API only, like an application.
 */
package dev.tollgate.demo;
