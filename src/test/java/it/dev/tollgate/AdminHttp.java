package it.dev.tollgate;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;

/** Raw HTTP to the IT servers' operator resources, as the demo's users (server.xml). */
final class AdminHttp {

    static final String OPERATOR = "operator:tollgate-demo";
    static final String VIEWER = "viewer:viewer-demo";

    private static final HttpClient CLIENT = HttpClient.newBuilder()
            .connectTimeout(Duration.ofSeconds(5))
            .version(HttpClient.Version.HTTP_1_1)
            .build();

    private AdminHttp() {}

    /** {@code method path} on the first server, with Basic {@code credentials} unless null. */
    static HttpResponse<String> send(String method, String path, String credentials) throws Exception {
        return send(LibertyServer.baseUrl(), method, path, credentials);
    }

    /** {@code method path} on the server at {@code base}, with Basic {@code credentials} unless null. */
    static HttpResponse<String> send(String base, String method, String path, String credentials) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path))
                .timeout(Duration.ofSeconds(10))
                .method(method, HttpRequest.BodyPublishers.noBody());
        if (credentials != null) {
            b.header(
                    "Authorization",
                    "Basic " + Base64.getEncoder().encodeToString(credentials.getBytes(StandardCharsets.UTF_8)));
        }
        return CLIENT.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }
}
