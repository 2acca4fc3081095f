package it.dev.tollgate;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * An IT whose promise is about time (a budget, a breaker's count of timeouts, a reload's delay, a pace, a
 * lock's keep-alive, the experiments' latencies): it runs with no other IT beside it, so another class's
 * server start never takes the CPU it measures.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Isolated
@interface Alone {}
