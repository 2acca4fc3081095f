package it.dev.tollgate;

import jakarta.ws.rs.core.Response;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/** One HTTP answer read whole (status, headers, body), and its connection released. */
public record Reply(int status, Map<String, List<String>> headers, String body) {

    public Reply {
        TreeMap<String, List<String>> byName = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        byName.putAll(headers);
        headers = byName;
    }

    public static Reply of(Response response) {
        try (response) {
            String body = response.hasEntity() ? response.readEntity(String.class) : "";
            return new Reply(response.getStatus(), response.getStringHeaders(), body);
        }
    }

    /** The first value of header {@code name}, as the server wrote it. */
    public Optional<String> header(String name) {
        List<String> values = headers.get(name);
        return values == null || values.isEmpty() ? Optional.empty() : Optional.of(values.get(0));
    }
}
