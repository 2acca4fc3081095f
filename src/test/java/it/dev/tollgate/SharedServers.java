package it.dev.tollgate;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * An IT of the two build servers (and their Redis): one such class at a time, since each counts what the
 * servers and their Redis hold. It may run beside an {@link OwnServer} class, which touches neither.
 * Every IT class carries one of {@code SharedServers}, {@link OwnServer} or {@link Alone} ({@code ItLanesTest}).
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@ResourceLock("it.shared-servers")
@interface SharedServers {}
