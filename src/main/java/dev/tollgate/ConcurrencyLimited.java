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
 * Lets at most {@code max-in-flight} calls per key run at once, across every server sharing Tollgate's
 * Redis: each call takes a slot (a lease in Redis) before it runs and frees it when it ends. Configured
 * as {@code tollgate.concurrency.<name>.*}: {@code max-in-flight} (required), {@code key} (default
 * {@code global}), {@code lease} (default {@code 10s}) and {@code fail-open}. On a type it applies to
 * every business method, sharing the slots; on a method it replaces the type's.
 *
 * <p>A call that finds every slot taken is refused at once: a business method throws {@link
 * ConcurrencyLimitExceededException}; a JAX-RS resource method answers {@code 429} with {@code
 * Retry-After}. A method returning a {@code CompletionStage} holds its slot until the stage completes.
 *
 * <p>The interceptor runs after {@link RateLimited}'s and before MicroProfile Fault Tolerance's
 * (priority {@code LIBRARY_BEFORE + 20}): a rate-limited call does not take a slot, and a {@code @Retry}
 * retries inside one slot. Deployment fails, naming the annotated method, when the limit is not
 * configured.
 */
@Inherited
@InterceptorBinding
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE, ElementType.METHOD})
public @interface ConcurrencyLimited {

    /** The concurrency limit; it must be configured. No default: a limit must be named. */
    @Nonbinding
    String value();
}
