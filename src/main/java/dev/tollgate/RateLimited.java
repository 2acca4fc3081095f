package dev.tollgate;

import jakarta.enterprise.util.Nonbinding;
import jakarta.interceptor.InterceptorBinding;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Limits calls to a CDI bean's, an EJB's or a JAX-RS resource's methods by the named limits, which
 * are configured as {@code tollgate.limits.<name>.*}. On a type it applies to every business method;
 * on a method it replaces the type's.
 *
 * <p>A denied business method call throws {@link RateLimitExceededException}; a JAX-RS request is
 * answered {@code 429 Too Many Requests} before the resource method runs. A resource method checked by
 * the JAX-RS filter is not counted again by the interceptor.
 *
 * <p>The interceptor runs before MicroProfile Fault Tolerance's (priority {@code LIBRARY_BEFORE + 10}):
 * a rejection never reaches a {@code @Retry} (which would only repeat a denied check) nor counts as a
 * failure in a {@code @CircuitBreaker}. To turn a rejection into a {@code @Fallback}, put the
 * {@code @Fallback} on the calling method.
 *
 * <p>With {@link #maxWait()}, a call waits for its tokens instead of being refused while they will
 * have refilled within it.
 *
 * <p>Deployment fails, naming the annotated method, when a named limit is not configured, or when
 * {@code maxWait} is invalid or names a limit that cannot be waited for.
 */
@Inherited
@InterceptorBinding
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE, ElementType.METHOD})
public @interface RateLimited {

    /** The limits to check, in order; each must be configured. No default: a limit must be named. */
    @Nonbinding
    String[] value();

    /**
     * How long a call may wait for its tokens instead of being refused: {@code 500ms}, {@code 2s},
     * {@code PT2S}. A call whose tokens will have refilled within it reserves them at once, in the same
     * atomic script, and sleeps until they are there; later calls queue behind it, so waiters are spaced
     * as the limit allows and never wake together. A call that would wait longer is refused at once. For
     * token-bucket limits that refill; with several limits the call waits for the longest of their waits.
     *
     * <p>Not on JAX-RS resource methods unless {@code tollgate.http.allow-wait=true}: a request thread
     * parked on a limit serves nobody meanwhile, and a burst of waiting requests would take every thread
     * of the server; answer {@code 429} with {@code Retry-After} instead and let the client wait. Put it on
     * the business method that calls the limited partner. Default {@code "0s"}: never wait.
     */
    @Nonbinding
    String maxWait() default "0s";

    /**
     * Which calls count: {@link CountOn#ALWAYS}, only those that {@link CountOn#SUCCESS succeed}, or only
     * those that {@link CountOn#FAILURE fail} (a login limit that counts failed attempts). Each call
     * spends before it runs, so a spent bucket blocks it; an outcome that is not counted gives the tokens
     * back when the call ends. Default {@link CountOn#ALWAYS}.
     */
    @Nonbinding
    CountOn countOn() default CountOn.ALWAYS;

    /**
     * The exceptions that make a business method call a failure for {@link #countOn()}; any other
     * exception, and a normal return, is a success. For the JAX-RS filter a failure is a response
     * status of 400 or more. Default {@code Throwable}: every exception.
     */
    @Nonbinding
    Class<? extends Throwable>[] failOn() default {Throwable.class};
}
