package it.dev.tollgate;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * An IT that starts a Liberty server of its own ({@link ExtraServer}) with a Redis of its own or none: one
 * such class at a time, beside the {@link SharedServers} classes. Most of its time is its server's start,
 * which the shared servers' tests need not wait for.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@ResourceLock("it.own-servers")
@interface OwnServer {}
