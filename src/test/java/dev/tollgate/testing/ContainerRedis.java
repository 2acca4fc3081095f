package dev.tollgate.testing;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.command.InspectContainerResponse;
import com.github.dockerjava.api.model.ExposedPort;
import com.github.dockerjava.api.model.PortBinding;
import com.github.dockerjava.api.model.Ports;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.wait.strategy.Wait;
import org.testcontainers.utility.DockerImageName;

/**
 * Redis in a container (Testcontainers): freeze is a container pause (the cgroup freezer, like
 * SIGSTOP), kill a container kill, restart a kill and a start of the same container. The port is
 * published on {@code 127.0.0.1:<port>}, chosen by the harness, so it is the same after a restart on
 * every engine, and Redis is not reachable from outside this machine.
 */
final class ContainerRedis implements RedisRunner {

    private static final ExposedPort REDIS = ExposedPort.tcp(6379);

    private final String image;
    private final List<String> extraArgs;
    private GenericContainer<?> container;
    private int port;
    private boolean frozen;

    ContainerRedis(String image, List<String> extraArgs) {
        this.image = image;
        this.extraArgs = List.copyOf(extraArgs);
    }

    @Override
    public void start(int port) throws IOException {
        this.port = port;
        List<String> cmd = new ArrayList<>(List.of("redis-server", "--protected-mode", "no"));
        cmd.addAll(RedisServer.commonArgs());
        cmd.addAll(extraArgs);
        GenericContainer<?> c = new GenericContainer<>(DockerImageName.parse(image))
                .withCommand(cmd.toArray(String[]::new))
                .withCreateContainerCmdModifier(create -> {
                    create.withExposedPorts(REDIS);
                    create.getHostConfig()
                            .withPortBindings(new PortBinding(Ports.Binding.bindIpAndPort("127.0.0.1", port), REDIS));
                })
                .waitingFor(Wait.forLogMessage(".*Ready to accept connections.*\\n", 1)
                        .withStartupTimeout(Duration.ofSeconds(60)));
        try {
            c.start();
        } catch (RuntimeException e) {
            c.stop();
            throw new IOException(
                    "could not start a Redis container from image " + image + " on 127.0.0.1:" + port + " ("
                            + e + "). Choose the image with -D" + HarnessSettings.REDIS_IMAGE + "=..., or run Redis"
                            + " from the binary with -D" + HarnessSettings.REDIS_BACKEND + "=binary.",
                    e);
        }
        container = c;
        frozen = false;
    }

    @Override
    public void kill() throws InterruptedException {
        if (running()) {
            try {
                // Like SIGKILL of a stopped process: a frozen Redis dies without running again.
                client().killContainerCmd(container.getContainerId()).exec();
            } catch (RuntimeException engineWantsItRunning) {
                thaw();
                client().killContainerCmd(container.getContainerId()).exec();
            }
            frozen = false;
            RedisProcesses.await(Duration.ofSeconds(10), "container " + shortId() + " to stop", () -> !running());
        }
    }

    @Override
    public void freeze() {
        if (running() && !frozen) {
            client().pauseContainerCmd(container.getContainerId()).exec();
            frozen = true;
        }
    }

    @Override
    public void thaw() {
        if (frozen) {
            client().unpauseContainerCmd(container.getContainerId()).exec();
            frozen = false;
        }
    }

    @Override
    public void restart() throws InterruptedException {
        kill();
        client().startContainerCmd(container.getContainerId()).exec();
        RedisProcesses.await(
                Duration.ofSeconds(30), "Redis in container " + shortId() + " to answer PING on port " + port, () -> {
                    if (!running()) {
                        throw new IllegalStateException("the container " + shortId() + " exited: " + logs());
                    }
                    return RedisProcesses.pings(port);
                });
    }

    @Override
    public void stop() {
        if (container != null) {
            thawQuietly();
            container.stop();
        }
    }

    @Override
    public boolean running() {
        if (container == null || container.getContainerId() == null) {
            return false;
        }
        InspectContainerResponse.ContainerState state =
                client().inspectContainerCmd(container.getContainerId()).exec().getState();
        return Boolean.TRUE.equals(state.getRunning());
    }

    private void thawQuietly() {
        try {
            thaw();
        } catch (RuntimeException notPaused) {
            frozen = false;
        }
    }

    private String shortId() {
        return container.getContainerId().substring(0, 12);
    }

    private String logs() {
        try {
            return container.getLogs();
        } catch (RuntimeException e) {
            return "(no logs: " + e + ")";
        }
    }

    private static DockerClient client() {
        return DockerClientFactory.instance().client();
    }
}
