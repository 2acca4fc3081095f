package dev.tollgate.experiments.outage;

import dev.tollgate.experiments.common.LocalRedis;
import dev.tollgate.experiments.common.TcpLink;
import dev.tollgate.internal.engine.Engine;
import dev.tollgate.internal.ratelimit.DecisionListener;
import java.io.IOException;

/**
 * The Tollgate of the link phases (Tollgate's defaults, like the breaker-on one) and the TCP proxy it
 * reaches Redis through. Built at the first link phase, after the faults on the process itself: a
 * client built earlier would hold connections that the SIGKILL broke.
 */
final class ThroughLink implements AutoCloseable {
    private final LocalRedis redis;
    private final DecisionListener listener;
    private final int warmup;
    private TcpLink link;
    private Engine tollgate;

    ThroughLink(LocalRedis redis, DecisionListener listener, int warmup) {
        this.redis = redis;
        this.listener = listener;
        this.warmup = warmup;
    }

    Engine tollgate() throws IOException {
        if (tollgate == null) {
            link = new TcpLink(redis.port());
            tollgate = Engine.builder(OutageExperiment.settings(link.url()))
                    .listener(listener)
                    .build();
            Engine warming = tollgate;
            OutageExperiment.warmUp(i -> warming, warmup, "the link's warm-up");
        }
        return tollgate;
    }

    TcpLink link() {
        return link;
    }

    @Override
    public void close() {
        if (tollgate != null) {
            tollgate.close();
        }
        if (link != null) {
            link.close();
        }
    }
}
