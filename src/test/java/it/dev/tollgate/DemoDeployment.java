package it.dev.tollgate;

import dev.tollgate.testing.RedisServer;
import org.microshed.testing.SharedContainerConfiguration;

/**
 * What every Liberty IT shares ({@code @SharedContainerConfig(DemoDeployment.class)}): the demo WAR on the
 * two Liberty servers that liberty-maven-plugin starts before the ITs (MicroShed's manual mode:
 * {@code microshed_manual_env=true}, {@code microshed_hostname}, {@code microshed_http_port}, set by
 * Failsafe), and the one Redis both servers were told to use, {@code redis://127.0.0.1:<it.redis.port>}.
 *
 * <p>That Redis is a container or the binary, as for every test ({@code dev.tollgate.testing.RedisBackend}).
 * It is started by the first IT class and shared by the rest; each class registers it as an extension and
 * finds it running, thawed and empty, whatever the class before did to it.
 */
public final class DemoDeployment implements SharedContainerConfiguration {

    /** The Redis of the IT servers: {@code @RegisterExtension static final RedisServer redis = DemoDeployment.redis;} */
    public static final RedisServer redis = RedisServer.onPort(LibertyServer.redisPort());
}
