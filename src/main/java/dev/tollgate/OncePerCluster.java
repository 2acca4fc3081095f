package dev.tollgate;

import jakarta.enterprise.util.Nonbinding;
import jakarta.interceptor.InterceptorBinding;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Runs the annotated job on one server of the cluster at a time: each invocation first takes a Redis
 * lock named {@link #name()}; the server that gets it runs the method, every other server skips it.
 *
 * <pre>{@code
 * @Schedule(hour = "2", persistent = false)
 * @OncePerCluster(name = "nightly-export", ttl = "1h", atLeast = "5m")
 * void export() { ... }
 * }</pre>
 *
 * <p>A skipped invocation returns without running the method, so annotated methods must return
 * {@code void}. The lock <b>fails closed</b>: when Redis cannot be asked, no server runs the job; each
 * skipped run logs a WARNING naming the lock and counts {@code tollgate_lock_unavailable_total}.
 *
 * <p>Every member can be overridden through MicroProfile Config, and is checked while the application
 * deploys (a bad value fails the deployment, naming the method or property):
 * {@code tollgate.locks.<name>.ttl}, {@code tollgate.locks.<name>.at-least} and {@code
 * tollgate.locks.<name>.keep-alive}. Durations are written
 * {@code 500ms}, {@code 30s}, {@code 5m}, {@code 1h}, {@code 1d} or ISO-8601 ({@code PT1H}).
 *
 * <p>On a type, every business method of the type (and of its subclasses) runs once per cluster, each under its
 * own default name unless {@link #name()} is given, in which case they share one lock.
 */
@InterceptorBinding
@Inherited
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.METHOD, ElementType.TYPE})
public @interface OncePerCluster {

    /**
     * The lock's name, shared by every server that must not run the job concurrently: letters, digits,
     * {@code _ . -}, at most 128 characters. Default {@code ""}: {@code <simple class name>.<method name>}.
     */
    @Nonbinding
    String name() default "";

    /**
     * How long the lock is held at most: it expires this long after it was taken, whether or not the
     * job has finished, so that a server that dies holding it does not stop the job forever. It must
     * exceed the longest run: once it expires, another server may start the job while this one still
     * runs it. No default: a lock without an expiry is worse than no lock.
     */
    @Nonbinding
    String ttl();

    /**
     * The shortest time the lock is held, even when the job finishes sooner: the lock then stays until
     * this long after it was taken, so a server whose clock runs late does not start the job again
     * on its own next tick. At most {@link #ttl()}. Default {@code "0s"}: released when the job ends.
     */
    @Nonbinding
    String atLeast() default "0s";

    /**
     * Whether the lock is kept alive while the job runs: extended to {@link #ttl()} every ttl/3 through
     * the token-checked extend script, so a job longer than its ttl keeps it, while a server that dies
     * still frees it within one ttl. The keep-alive stops when the job ends and never outlives the
     * application. A keep-alive that is refused (the server was paused past the ttl, another took the
     * lock) fires the CDI event {@link LockLost}. Default {@code false}.
     */
    @Nonbinding
    boolean keepAlive() default false;
}
