package it.dev.tollgate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tollgate.testing.RedisServer;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.microshed.testing.SharedContainerConfig;
import org.microshed.testing.jupiter.MicroShedTest;

/**
 * A limit's capacity changed in {@code tollgate.config.file} while the first server serves traffic: the new
 * capacity applies within two intervals (200 ms each here), with no restart; a change the deployment would
 * refuse (a bad value, a key that names no bean) is refused whole, with one SEVERE line, and requests go on
 * being decided by the limits in force; a key that names a bean that exists is applied. The test waits for what the server shows: the {@code
 * RateLimit-Policy} it answers with, or the SEVERE line.
 */
@MicroShedTest
@SharedContainerConfig(DemoDeployment.class)
@Alone
public class ReloadIT {

    @RegisterExtension
    static final RedisServer redis = DemoDeployment.redis;

    private static final Path FILE = Path.of(System.getProperty("it.limits.file"));

    /** The first server's {@code tollgate.config.interval} (pom.xml). */
    private static final long INTERVAL_MS = 200;

    /**
     * What a change may take past its two intervals, from the write to what a new client's call shows:
     * the looks' scheduling, this test's 20 ms polls and a request on a loaded machine (0.23-0.72 s in
     * all were seen at a load average of 18-23 on 2 cores). The default interval (5 s), an interval not
     * read, or a third look would each take longer.
     */
    private static final long TOLERANCE_MS = 600;

    /** Far past the bound, so that a slow change is reported with what it took rather than as a timeout. */
    private static final long DEADLINE_NANOS = 15_000_000_000L;

    private static final String REFUSED = "changed, but the limits in force stay";

    /** A fresh client address per probe, so a probe spends from a bucket of its own. */
    private static final AtomicInteger PROBES = new AtomicInteger();

    private static HttpResponse<String> get(String client) throws Exception {
        return LibertyServer.get("/demo/reload", "X-Forwarded-For", client);
    }

    /** Of {@code calls} from {@code client}: how many were admitted; every other one must be a 429. */
    private static int admitted(String client, int calls) throws Exception {
        int n = 0;
        for (int i = 0; i < calls; i++) {
            int status = get(client).statusCode();
            assertTrue(status == 200 || status == 429, "call " + i + " of " + client + " answered " + status);
            n += status == 200 ? 1 : 0;
        }
        return n;
    }

    /** The capacity the server's {@code RateLimit-Policy} names for a new client's first call. */
    private static String policy() throws Exception {
        HttpResponse<String> r = get("198.51.100." + (PROBES.incrementAndGet() % 250 + 1));
        assertEquals(200, r.statusCode(), "a new client's first call: " + r.body());
        return r.headers().firstValue("RateLimit-Policy").orElse("");
    }

    /** Waits until a new client's policy names {@code capacity}; the milliseconds it took. */
    private static long awaitCapacity(long capacity, long since) throws Exception {
        String want = "\"demo-reload\";q=" + capacity + ";";
        String seen = "";
        while (System.nanoTime() - since < DEADLINE_NANOS) {
            seen = policy();
            if (seen.contains(want)) {
                return (System.nanoTime() - since) / 1_000_000;
            }
            Thread.sleep(20);
        }
        throw new AssertionError("the policy never became " + want + "; last " + seen);
    }

    /** Waits for the reloader's verdict on a new version (applied or refused); the milliseconds it took. */
    private static long awaitVerdict(long lines, long since) throws Exception {
        while (System.nanoTime() - since < DEADLINE_NANOS) {
            if (LibertyServer.log().stream()
                    .skip(lines)
                    .anyMatch(l -> l.contains(REFUSED) || l.contains("limits reloaded from"))) {
                return (System.nanoTime() - since) / 1_000_000;
            }
            Thread.sleep(20);
        }
        throw new AssertionError("the server logged no verdict on the new version");
    }

    /** Writes the file as an operator should: beside it, then renamed over it. */
    private static long write(String content) throws Exception {
        Path next = FILE.resolveSibling(FILE.getFileName() + ".next");
        Files.writeString(next, content);
        Files.move(next, FILE, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        long written = System.nanoTime();
        System.out.println("ReloadIT: written at " + java.time.Instant.now());
        return written;
    }

    /** Refuses {@code content}: capacity 5 stays in force (no 500), one SEVERE line naming {@code problem}. */
    private static void refused(String content, String problem, String client) throws Exception {
        long lines = LibertyServer.log().size();
        long ms = awaitVerdict(lines, write(content));
        System.out.println("ReloadIT: verdict in " + ms + " ms on " + problem);
        assertEquals(5, admitted(client, 8), "the limits in force stay: 5 admitted, the rest 429, none 500");
        assertTrue(policy().startsWith("\"demo-reload\";q=5;"), "the capacity in force");
        Thread.sleep(1_000); // five more looks at the same refused version
        List<String> log = LibertyServer.log().stream().skip(lines).toList();
        assertEquals(1, log.stream().filter(l -> l.contains(REFUSED)).count(), "one SEVERE line per version: " + log);
        assertTrue(log.stream().anyMatch(l -> l.contains(problem)), problem + " in " + log);
        assertTrue(log.stream().noneMatch(l -> l.contains("limits reloaded from")), "nothing applied: " + log);
    }

    @Test
    void aChangedCapacityAppliesWhileTheServerRunsAndARefusedOneChangesNothing() throws Exception {
        RedisReady.awaitBoth();
        assertEquals(2, admitted("192.0.2.1", 6), "the properties' capacity");

        long lines = LibertyServer.log().size();
        long ms = awaitCapacity(5, write("tollgate.limits.demo-reload.capacity=5\n"));
        System.out.println("ReloadIT: capacity 2 -> 5 in force after " + ms + " ms");
        // Two looks one interval apart must read the new bytes: never sooner than one interval after the write.
        assertTrue(ms >= INTERVAL_MS, "in force " + ms + " ms after the write: before a second look read it");
        assertTrue(
                ms <= 2 * INTERVAL_MS + TOLERANCE_MS,
                "in force " + ms + " ms after the write: past two intervals of " + INTERVAL_MS + " ms and "
                        + TOLERANCE_MS + " ms for a loaded machine");
        assertTrue(
                LibertyServer.log().stream()
                        .skip(lines)
                        .anyMatch(l -> l.contains("'demo-reload' (token-bucket capacity=2")
                                && l.contains("-> (token-bucket capacity=5")),
                "one line: the diff");
        assertEquals(5, admitted("192.0.2.2", 8), "the file's capacity, no restart");

        refused(
                "tollgate.limits.demo-reload.capacity=many\n",
                "tollgate.limits.demo-reload.capacity=many",
                "192.0.2.3");
        refused(
                "tollgate.limits.demo-reload.capacity=9\ntollgate.limits.demo-reload.key=IP\n",
                "tollgate.limits.demo-reload.key=IP (expected ip, principal, global, header:<Name> or the name of a"
                        + " KeyResolver bean; no KeyResolver bean is named 'IP')",
                "192.0.2.4");
        refused(
                "tollgate.limits.demo-reload.capacity=9\ntollgate.limits.demo-reload.key=noSuchKeyResolver\n",
                "no KeyResolver bean is named 'noSuchKeyResolver'",
                "192.0.2.5");

        // A bean that exists passes the same check, looked up from the reloader's thread.
        lines = LibertyServer.log().size();
        awaitVerdict(
                lines, write("tollgate.limits.demo-reload.capacity=5\ntollgate.limits.demo-reload.key=demo-tenants\n"));
        assertTrue(
                LibertyServer.log().stream()
                        .skip(lines)
                        .anyMatch(l -> l.contains("key=ip mode=enforce")
                                && l.contains("-> (token-bucket capacity=5")
                                && l.contains("key=demo-tenants")),
                "applied: the key's change in the diff");
        int tenant = 0;
        for (int i = 0; i < 8; i++) {
            HttpResponse<String> r = LibertyServer.get(
                    "/demo/reload", "X-Forwarded-For", "192.0.2." + (10 + i), "X-User", "user" + i + "@reload-co");
            assertTrue(r.statusCode() == 200 || r.statusCode() == 429, "answered " + r.statusCode());
            tenant += r.statusCode() == 200 ? 1 : 0;
        }
        assertEquals(5, tenant, "one bucket for the tenant, from 8 addresses");
    }
}
