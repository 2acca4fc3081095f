package dev.tollgate.testing;

import java.util.List;
import java.util.Locale;
import org.testcontainers.DockerClientFactory;

/**
 * Where the tests' Redis servers come from: a container when a Docker-compatible engine answers, the
 * {@code redis-server} binary otherwise ({@value HarnessSettings#REDIS_BACKEND}, default {@code auto}).
 * Chosen once per test JVM, and said once in the test output.
 */
public enum RedisBackend {
    CONTAINER,
    BINARY;

    private static RedisBackend chosen;

    /** The backend of this JVM's tests. */
    public static synchronized RedisBackend chosen() {
        if (chosen == null) {
            String setting = HarnessSettings.get(HarnessSettings.REDIS_BACKEND, "auto");
            chosen = choose(setting);
            String why = setting.equalsIgnoreCase("auto")
                    ? (chosen == CONTAINER ? "; a container engine answered" : "; no container engine answered")
                    : "";
            System.out.println("[tollgate-test] Redis servers for tests: " + chosen.describe() + " ("
                    + HarnessSettings.REDIS_BACKEND + "=" + setting + why + ")");
        }
        return chosen;
    }

    private static RedisBackend choose(String setting) {
        return switch (setting.toLowerCase(Locale.ROOT)) {
            case "binary" -> BINARY;
            case "container" -> {
                if (!engineAnswers()) {
                    throw new IllegalStateException(HarnessSettings.REDIS_BACKEND
                            + "=container, but no Docker-compatible"
                            + " engine answers (Testcontainers looked at DOCKER_HOST, the Docker socket and"
                            + " ~/.testcontainers.properties). Start one, or use " + HarnessSettings.REDIS_BACKEND
                            + "=binary.");
                }
                yield CONTAINER;
            }
            case "auto" -> engineAnswers() ? CONTAINER : BINARY;
            default ->
                throw new IllegalStateException(
                        HarnessSettings.REDIS_BACKEND + "=" + setting + " (expected auto, container or binary)");
        };
    }

    private static boolean engineAnswers() {
        return DockerClientFactory.instance().isDockerAvailable();
    }

    RedisRunner runner(List<String> extraArgs) {
        return this == CONTAINER
                ? new ContainerRedis(
                        HarnessSettings.get(HarnessSettings.REDIS_IMAGE, HarnessSettings.DEFAULT_REDIS_IMAGE),
                        extraArgs)
                : new BinaryRedis(extraArgs);
    }

    String describe() {
        return this == CONTAINER
                ? "containers of image "
                        + HarnessSettings.get(HarnessSettings.REDIS_IMAGE, HarnessSettings.DEFAULT_REDIS_IMAGE)
                        + " through "
                        + DockerClientFactory.instance().getTransportConfig().getDockerHost()
                : "the redis-server binary " + BinaryRedis.binary();
    }
}
