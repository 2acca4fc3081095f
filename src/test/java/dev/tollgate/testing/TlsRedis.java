package dev.tollgate.testing;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.Key;
import java.security.KeyStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;

/**
 * A Redis that speaks TLS only ({@code --port 0 --tls-port P}), with a certificate the harness makes at
 * start: a test CA and a server certificate it signs for {@code localhost} and {@code 127.0.0.1}, made by
 * the JDK's own {@code keytool} (nothing else to install). It listens on {@code 127.0.0.2} too, an address
 * its certificate does not name. {@link #trustStore()} is a PKCS12 trust store
 * holding the CA alone, password {@link #TRUST_STORE_PASSWORD}: what a user hands the JVM
 * ({@code javax.net.ssl.trustStore}). Clients do not authenticate ({@code --tls-auth-clients no}).
 *
 * <p>Always the {@code redis-server} binary (Debian's is built with TLS): a container would need the
 * certificates mounted, and nothing here is about the backend.
 */
public final class TlsRedis implements BeforeAllCallback, AfterAllCallback {

    public static final String TRUST_STORE_PASSWORD = "tollgate-test";

    private Path dir;
    private Process process;
    private int port;

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        dir = Files.createTempDirectory("tollgate-tls-");
        certificates();
        port = Ports.free();
        List<String> args = List.of(
                RedisServer.binary(),
                "--port",
                "0",
                "--tls-port",
                Integer.toString(port),
                "--bind",
                "127.0.0.1",
                "127.0.0.2",
                "--tls-cert-file",
                dir.resolve("server.pem").toString(),
                "--tls-key-file",
                dir.resolve("server.key").toString(),
                "--tls-ca-cert-file",
                dir.resolve("ca.pem").toString(),
                "--tls-auth-clients",
                "no",
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                dir.toString());
        Path log = dir.resolve("redis.log");
        process = new ProcessBuilder(args)
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        RedisProcesses.await(Duration.ofSeconds(10), "TLS port " + port + " to answer PING", () -> {
            if (!process.isAlive()) {
                throw new IllegalStateException("redis-server exited: " + RedisProcesses.read(log));
            }
            try (Jedis j = admin()) {
                return "PONG".equals(j.ping());
            } catch (RuntimeException notYet) {
                return false;
            }
        });
    }

    @Override
    public void afterAll(ExtensionContext context) throws Exception {
        RedisProcesses.kill(process);
    }

    public int port() {
        return port;
    }

    /** The PKCS12 trust store holding the test CA alone. */
    public Path trustStore() {
        return dir.resolve("trust.p12");
    }

    /** A TLS connection that trusts the test CA (and nothing else), speaking RESP2; the caller closes it. */
    @SuppressWarnings("deprecation") // ssl(boolean), as Tollgate's own clients
    public Jedis admin() {
        return new Jedis(
                new HostAndPort("localhost", port),
                DefaultJedisClientConfig.builder()
                        .ssl(true)
                        .sslSocketFactory(trustingTheCa().getSocketFactory())
                        .timeoutMillis(2000)
                        .autoNegotiateProtocol(false)
                        .build());
    }

    private SSLContext trustingTheCa() {
        try (InputStream in = Files.newInputStream(trustStore())) {
            KeyStore trust = KeyStore.getInstance("PKCS12");
            trust.load(in, TRUST_STORE_PASSWORD.toCharArray());
            TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            tmf.init(trust);
            SSLContext ssl = SSLContext.getInstance("TLS");
            ssl.init(null, tmf.getTrustManagers(), null);
            return ssl;
        } catch (Exception e) {
            throw new IllegalStateException("cannot read the test trust store " + trustStore(), e);
        }
    }

    /** ca.pem, server.pem (signed by the CA) and server.key (PKCS#8 PEM, as OpenSSL reads it), trust.p12. */
    private void certificates() throws Exception {
        String pw = TRUST_STORE_PASSWORD;
        List<List<String>> commands = new ArrayList<>();
        commands.add(List.of(
                "-genkeypair",
                "-alias",
                "ca",
                "-keyalg",
                "RSA",
                "-keysize",
                "2048",
                "-dname",
                "CN=Tollgate Test CA",
                "-ext",
                "bc:c",
                "-validity",
                "2",
                "-keystore",
                file("ca.p12"),
                "-storepass",
                pw));
        commands.add(List.of(
                "-genkeypair",
                "-alias",
                "server",
                "-keyalg",
                "RSA",
                "-keysize",
                "2048",
                "-dname",
                "CN=localhost",
                "-validity",
                "2",
                "-keystore",
                file("server.p12"),
                "-storepass",
                pw));
        commands.add(List.of(
                "-certreq",
                "-alias",
                "server",
                "-keystore",
                file("server.p12"),
                "-storepass",
                pw,
                "-file",
                file("server.csr")));
        commands.add(List.of(
                "-gencert",
                "-alias",
                "ca",
                "-keystore",
                file("ca.p12"),
                "-storepass",
                pw,
                "-infile",
                file("server.csr"),
                "-outfile",
                file("server.pem"),
                "-rfc",
                "-ext",
                "san=dns:localhost,ip:127.0.0.1",
                "-validity",
                "2"));
        commands.add(List.of(
                "-exportcert",
                "-alias",
                "ca",
                "-keystore",
                file("ca.p12"),
                "-storepass",
                pw,
                "-rfc",
                "-file",
                file("ca.pem")));
        commands.add(List.of(
                "-importcert",
                "-alias",
                "ca",
                "-file",
                file("ca.pem"),
                "-keystore",
                file("trust.p12"),
                "-storetype",
                "PKCS12",
                "-storepass",
                pw,
                "-noprompt"));
        keytool(commands);
        KeyStore server = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(dir.resolve("server.p12"))) {
            server.load(in, pw.toCharArray());
        }
        Key key = server.getKey("server", pw.toCharArray());
        Files.writeString(
                dir.resolve("server.key"),
                "-----BEGIN PRIVATE KEY-----\n"
                        + Base64.getMimeEncoder(64, "\n".getBytes()).encodeToString(key.getEncoded())
                        + "\n-----END PRIVATE KEY-----\n");
    }

    private String file(String name) {
        return dir.resolve(name).toString();
    }

    /** The commands in order, in one JVM ({@link KeytoolBatch}). */
    private static void keytool(List<List<String>> commands) throws IOException, InterruptedException {
        List<String> args = new ArrayList<>();
        for (List<String> command : commands) {
            args.addAll(command);
            args.add(KeytoolBatch.NEXT);
        }
        ChildJvm.Finished run = ChildJvm.run(
                List.of("--add-exports", "java.base/sun.security.tools.keytool=ALL-UNNAMED"),
                KeytoolBatch.class,
                Duration.ofMinutes(3),
                args.toArray(String[]::new));
        if (run.exitCode() != 0) {
            throw new IllegalStateException("keytool failed (" + String.join(" ", args) + "):\n"
                    + String.join("\n", run.lines()) + "\n" + run.stderr());
        }
    }
}
