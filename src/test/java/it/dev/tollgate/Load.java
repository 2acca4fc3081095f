package it.dev.tollgate;

import jakarta.ws.rs.core.Response;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Function;
import java.util.function.IntFunction;
import org.microshed.testing.jaxrs.RestClientBuilder;

/**
 * Many calls at once through typed clients. A CXF client proxy is not safe for concurrent calls, so a
 * call borrows a client no other call is using, built as MicroShed builds its {@code @RESTClient} fields
 * (at most one per call in flight, kept for the next load).
 */
final class Load {

    private static final Map<String, Queue<DemoClient>> IDLE = new ConcurrentHashMap<>();

    private Load() {}

    /** {@code requests} calls to the first server, at most {@code inFlight} outstanding; replies in order. */
    static List<Reply> fire(int requests, int inFlight, Function<DemoClient, Response> call) throws Exception {
        return fire(requests, inFlight, i -> LibertyServer.baseUrl(), call);
    }

    /** As {@link #fire(int, int, Function)}, call {@code i} going to the server at {@code server(i)}. */
    static List<Reply> fire(int requests, int inFlight, IntFunction<String> server, Function<DemoClient, Response> call)
            throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(inFlight);
        try {
            List<Future<Reply>> futures = new ArrayList<>();
            for (int i = 0; i < requests; i++) {
                String baseUrl = server.apply(i);
                futures.add(pool.submit(() -> call(baseUrl, call)));
            }
            List<Reply> out = new ArrayList<>();
            for (Future<Reply> f : futures) {
                out.add(f.get());
            }
            return out;
        } finally {
            pool.shutdownNow();
        }
    }

    static long count(List<Reply> replies, int status) {
        return replies.stream().filter(r -> r.status() == status).count();
    }

    private static Reply call(String baseUrl, Function<DemoClient, Response> call) {
        Queue<DemoClient> idle = IDLE.computeIfAbsent(baseUrl, u -> new ConcurrentLinkedQueue<>());
        DemoClient client = idle.poll();
        if (client == null) {
            client = client(baseUrl);
        }
        try {
            return Reply.of(call.apply(client));
        } finally {
            idle.add(client);
        }
    }

    /** A typed client of the demo on the server at {@code baseUrl}. */
    static DemoClient client(String baseUrl) {
        return new RestClientBuilder()
                .withAppContextRoot(baseUrl)
                .withJaxrsPath("/")
                .build(DemoClient.class);
    }
}
