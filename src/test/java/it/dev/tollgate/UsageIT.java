package it.dev.tollgate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tollgate.testing.RedisServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.microshed.testing.SharedContainerConfig;
import org.microshed.testing.jupiter.MicroShedTest;

/**
 * Usage you can bill through the demo ({@code /demo/metered}, limit {@code demo-metered}, keyed by {@code
 * X-Api-Key}, usage kept 35 days) on two real Liberty servers and a real Redis: 3 API keys make 5, 7
 * and 11 calls across both servers, and the operator's export lists exactly those numbers.
 */
@MicroShedTest
@SharedContainerConfig(DemoDeployment.class)
@SharedServers
public class UsageIT {

    @RegisterExtension
    static final RedisServer redis = DemoDeployment.redis;

    private static final List<String> SERVERS = List.of(LibertyServer.baseUrl(), LibertyServer.secondBaseUrl());

    private static final HttpClient CLIENT = HttpClient.newBuilder()
            .connectTimeout(Duration.ofSeconds(5))
            .version(HttpClient.Version.HTTP_1_1)
            .build();

    private static final String USAGE = "/tollgate/admin/limits/demo-metered/usage";

    @BeforeAll
    static void threeKeysCallAcrossBothServers() throws Exception {
        RedisReady.awaitBurstReady();
        int i = 0;
        for (String[] key : new String[][] {{"key-five", "5"}, {"key-seven", "7"}, {"key-eleven", "11"}}) {
            for (int n = 0; n < Integer.parseInt(key[1]); n++) {
                HttpResponse<String> r = send(SERVERS.get(i++ % 2), "POST", "/demo/metered", "X-Api-Key", key[0]);
                assertEquals(200, r.statusCode(), key[0] + ": " + r.body());
            }
        }
    }

    private static HttpResponse<String> send(String base, String method, String path, String header, String value)
            throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path))
                .timeout(Duration.ofSeconds(10))
                .method(method, HttpRequest.BodyPublishers.noBody())
                .header(
                        "Authorization",
                        "Basic "
                                + Base64.getEncoder()
                                        .encodeToString(AdminHttp.OPERATOR.getBytes(StandardCharsets.UTF_8)));
        if (header != null) {
            b.header(header, value);
        }
        return CLIENT.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static String today() {
        return LocalDate.now(ZoneOffset.UTC).toString();
    }

    private static String days() {
        LocalDate d = LocalDate.now(ZoneOffset.UTC);
        return "?from=" + d.minusDays(1) + "&to=" + d.plusDays(1);
    }

    @Test
    void theJsonExportListsExactlyWhatEachKeySpent() throws Exception {
        HttpResponse<String> r = send(SERVERS.get(1), "GET", USAGE + days(), null, null);
        assertEquals(200, r.statusCode(), r.body());
        assertTrue(r.headers().firstValue("Content-Type").orElse("").startsWith("application/json"));
        Matcher m =
                Pattern.compile("\\{\"client\":\"([^\"]+)\",\"units\":(\\d+)").matcher(r.body());
        StringBuilder listed = new StringBuilder();
        while (m.find()) {
            listed.append(m.group(1)).append('=').append(m.group(2)).append(' ');
        }
        assertEquals("key-eleven=11 key-seven=7 key-five=5 ", listed.toString(), r.body());
        assertTrue(r.body().contains("\"" + today() + "\":"), r.body());
    }

    @Test
    void theCsvExportListsExactlyWhatEachKeySpent() throws Exception {
        String expected = "client,units\r\n\"key-eleven\",11\r\n\"key-seven\",7\r\n\"key-five\",5\r\n";
        HttpResponse<String> accepted = send(SERVERS.get(0), "GET", USAGE + days(), "Accept", "text/csv");
        assertEquals(200, accepted.statusCode(), accepted.body());
        assertTrue(accepted.headers().firstValue("Content-Type").orElse("").startsWith("text/csv"));
        assertEquals(expected, accepted.body());
        HttpResponse<String> asked = send(SERVERS.get(1), "GET", USAGE + days() + "&format=csv", null, null);
        assertEquals(expected, asked.body());
    }

    @Test
    void oneKeysUsageAndTopN() throws Exception {
        HttpResponse<String> one = send(SERVERS.get(0), "GET", USAGE + days() + "&client=key-seven", null, null);
        assertEquals(200, one.statusCode(), one.body());
        assertTrue(one.body().contains("{\"client\":\"key-seven\",\"units\":7,"), one.body());
        HttpResponse<String> top = send(SERVERS.get(0), "GET", USAGE + days() + "&top=1&format=csv", null, null);
        assertEquals("client,units\r\n\"key-eleven\",11\r\n", top.body());
    }

    @Test
    void aBadDayOrTopIsA400() throws Exception {
        assertEquals(
                400,
                send(SERVERS.get(0), "GET", USAGE + "?from=2026-13-01", null, null)
                        .statusCode());
        assertEquals(
                400,
                send(SERVERS.get(0), "GET", USAGE + "?top=zero", null, null).statusCode());
        assertEquals(
                400,
                send(SERVERS.get(0), "GET", USAGE + days() + "&top=0", null, null)
                        .statusCode());
        assertEquals(
                400,
                send(SERVERS.get(0), "GET", "/tollgate/admin/limits/demo-charge/usage", null, null)
                        .statusCode(),
                "a limit that keeps no usage");
    }
}
