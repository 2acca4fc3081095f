package dev.tollgate.internal.http;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.tollgate.testing.ChildJvm;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * No header and no setting makes the server resolve a name. Read in two ways: in a JVM whose resolver
 * knows {@code 1a2b.bad.cafe} (a name made of hex digits and dots, as the old pattern let through), and
 * from the compiled classes, which must not call a resolving method at all.
 */
class NoNameLookupTest {

    private static final String NAME = "1a2b.bad.cafe";

    @Test
    void aResolvableNameIsNeitherATrustedProxyNorAClient(@TempDir Path dir) throws Exception {
        Path hosts = dir.resolve("hosts");
        Files.writeString(hosts, "127.0.0.1 localhost\n10.9.9.9 " + NAME + "\n");
        List<String> out = ChildJvm.run(List.of("-Djdk.net.hosts.file=" + hosts), Child.class, Duration.ofSeconds(30))
                .lines();
        assertEquals(
                List.of(
                        "resolver: 10.9.9.9", // the name does resolve in that JVM, so a lookup would have found it
                        "trusted-proxies: refused",
                        "client behind a trusted proxy: unknown"),
                out);
    }

    @Test
    void noClassOfClientIdentityOrSettingsCallsAResolvingMethod() throws IOException {
        List<String> offenders;
        try (Stream<Path> files = Stream.concat(
                Files.walk(Path.of("target/classes/dev/tollgate/internal/http")),
                Files.walk(Path.of("target/classes/dev/tollgate/internal/config")))) {
            offenders = files.filter(f -> f.toString().endsWith(".class"))
                    .filter(f -> pool(f).contains("getByName") || pool(f).contains("getAllByName"))
                    .map(Path::toString)
                    .toList();
        }
        assertEquals(List.of(), offenders);
    }

    private static String pool(Path classFile) {
        try {
            return new String(Files.readAllBytes(classFile), StandardCharsets.ISO_8859_1);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Runs in the child JVM. */
    public static final class Child {
        public static void main(String[] args) throws Exception {
            System.out.println(
                    "resolver: " + java.net.InetAddress.getByName(NAME).getHostAddress());
            try {
                System.out.println("trusted-proxies: " + Cidr.parse(NAME));
            } catch (IllegalArgumentException e) {
                System.out.println("trusted-proxies: refused");
            }
            ClientAddresses addresses = new ClientAddresses(
                    List.of(Cidr.parse("127.0.0.1")), Optional.of(ClientHeader.X_FORWARDED_FOR), 64);
            System.out.println("client behind a trusted proxy: " + addresses.clientKey("127.0.0.1", List.of(NAME)));
        }
    }
}
