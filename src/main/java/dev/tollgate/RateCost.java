package dev.tollgate;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks the parameter of a {@link RateLimited} method whose value is what the call costs: {@code
 * export(@RateCost int rows)} spends {@code rows} tokens from each of the method's limits, in place of
 * their configured {@code cost}. The parameter must be a whole number ({@code long}, {@code int},
 * {@code short}, {@code byte} or their boxes).
 *
 * <p>A cost of 0 (or a null argument) spends nothing and asks no store. A negative cost is refused
 * ({@code IllegalArgumentException}; a JAX-RS request gets {@code 400}). A cost above a limit's capacity
 * could never pass: the call is denied with a retry-after of never, and nothing is spent.
 *
 * <p>On a JAX-RS resource method, the JAX-RS filter reads the cost before the method runs when the
 * parameter is a {@code @QueryParam}, {@code @PathParam} or {@code @HeaderParam}; a value that is not a
 * whole number gets {@code 400}.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.PARAMETER)
public @interface RateCost {}
