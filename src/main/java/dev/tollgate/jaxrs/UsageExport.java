package dev.tollgate.jaxrs;

import dev.tollgate.ClientUsage;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;

/**
 * A limit's usage as a billing run reads it: JSON ({@code {"limit","from","to","clients":[{"client",
 * "units","days":{"<day>":units}}]}}) or CSV ({@code client,units}, one row per client, the most first).
 * Client keys are the application's (an API key, a user name) and may hold any character: JSON escapes
 * them fully; CSV quotes every key and neutralises one a spreadsheet would read as a formula.
 */
final class UsageExport {

    private UsageExport() {}

    static String json(String limit, LocalDate from, LocalDate to, List<ClientUsage> clients) {
        StringBuilder b = new StringBuilder("{\"limit\":").append(quote(limit));
        b.append(",\"from\":\"").append(from).append("\",\"to\":\"").append(to).append("\",\"clients\":[");
        for (int i = 0; i < clients.size(); i++) {
            b.append(i == 0 ? "" : ",").append(json(clients.get(i)));
        }
        return b.append("]}").toString();
    }

    private static String json(ClientUsage u) {
        StringBuilder b = new StringBuilder("{\"client\":").append(quote(u.client()));
        b.append(",\"units\":").append(u.units()).append(",\"days\":{");
        int i = 0;
        for (Map.Entry<LocalDate, Long> d : u.days().entrySet()) {
            b.append(i++ == 0 ? "" : ",")
                    .append('"')
                    .append(d.getKey())
                    .append("\":")
                    .append(d.getValue());
        }
        return b.append("}}").toString();
    }

    static String csv(List<ClientUsage> clients) {
        StringBuilder b = new StringBuilder("client,units\r\n");
        for (ClientUsage u : clients) {
            b.append(csvField(u.client())).append(',').append(u.units()).append("\r\n");
        }
        return b.toString();
    }

    private static String csvField(String s) {
        String safe = !s.isEmpty() && "=+-@\t\r".indexOf(s.charAt(0)) >= 0 ? "'" + s : s;
        return '"' + safe.replace("\"", "\"\"") + '"';
    }

    static String quote(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                default -> {
                    if (c < 0x20 || c == 0x2028 || c == 0x2029) {
                        b.append(String.format("\\u%04x", (int) c));
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        return b.append('"').toString();
    }
}
