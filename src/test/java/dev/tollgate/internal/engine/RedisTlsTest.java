package dev.tollgate.internal.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tollgate.testing.ChildJvm;
import dev.tollgate.testing.TlsRedis;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;

/**
 * {@code rediss://} against a Redis that speaks TLS only, with a certificate of a test CA the harness
 * makes: the client trusts it the way the README says, through the JVM's trust store ({@code
 * javax.net.ssl.trustStore}), and a JVM that was not given that trust store refuses the server (every
 * decision degraded, nothing written), as does one that trusts it but reaches it by an address its
 * certificate does not name (the host name is checked). Each in a JVM of its own, since a JVM reads its default trust
 * store once.
 */
class RedisTlsTest {

    @RegisterExtension
    static final TlsRedis redis = new TlsRedis();

    @Test
    void aJvmTrustingTheCaDecidesCountsAndLocksOverTls() throws Exception {
        List<String> lines = run(trustingTheCa(), "rediss://localhost:" + redis.port());
        assertEquals(
                List.of(
                        "CHECK true false 1",
                        "CHECK true false 0",
                        "CHECK false false 0",
                        "COUNTER 1",
                        "LOCK Acquired"),
                lines.subList(0, 5),
                String.join("\n", lines));
        try (Jedis j = redis.admin()) {
            assertEquals(1, j.keys("tg:tk:{tls:*").size(), "the bucket was written over TLS");
            assertEquals("1", j.get("tollgate:counter:{tls-counter}"));
            assertTrue(j.exists("tollgate:lock:{tls-lock}"));
            j.flushAll();
        }
    }

    @Test
    void aJvmWithoutTheCaRefusesTheServerAndEveryDecisionIsDegraded() throws Exception {
        List<String> lines = run(List.of(), "rediss://localhost:" + redis.port());
        assertRefused(lines);
    }

    @Test
    void aServerWhoseCertificateDoesNotNameTheHostIsRefused() throws Exception {
        // The same server, its certificate trusted, reached by an address the certificate does not name.
        assertRefused(run(trustingTheCa(), "rediss://127.0.0.2:" + redis.port()));
    }

    private static void assertRefused(List<String> lines) {
        assertEquals(
                List.of(
                        "CHECK true true -1",
                        "CHECK true true -1",
                        "CHECK true true -1",
                        "COUNTER unavailable",
                        "LOCK Unavailable"),
                lines.subList(0, 5).stream()
                        .map(l -> l.startsWith("CHECK") ? l.replaceAll(" -?\\d+$", " -1") : l)
                        .toList(),
                String.join("\n", lines));
        try (Jedis j = redis.admin()) {
            assertEquals(List.of(), new ArrayList<>(j.keys("*")), "an untrusted server is told nothing");
        }
    }

    private static List<String> trustingTheCa() {
        return List.of(
                "-Djavax.net.ssl.trustStore=" + redis.trustStore(),
                "-Djavax.net.ssl.trustStorePassword=" + TlsRedis.TRUST_STORE_PASSWORD,
                "-Djavax.net.ssl.trustStoreType=PKCS12");
    }

    private static List<String> run(List<String> jvmOptions, String url) throws Exception {
        List<String> lines = new ArrayList<>();
        try (ChildJvm child = ChildJvm.start(jvmOptions, TlsChild.class, url)) {
            for (String line = ""; !line.startsWith("CAUSES"); ) {
                line = child.nextLine(Duration.ofSeconds(60));
                lines.add(line);
            }
            assertEquals(0, child.waitFor(Duration.ofSeconds(30)), String.join("\n", lines));
        }
        return lines;
    }
}
