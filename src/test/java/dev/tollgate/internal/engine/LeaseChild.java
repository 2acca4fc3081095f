package dev.tollgate.internal.engine;

import dev.tollgate.internal.config.PropertySource;
import dev.tollgate.internal.config.SettingsReader;
import dev.tollgate.internal.ratelimit.LeaseListener;
import dev.tollgate.internal.ratelimit.LimitSpec;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A server of the multi-process lease tests: {@code <url> <servers>}; its limits {@code q0} to {@code q10} ({@code q10} warms it up)
 * are quotas of 100 calls, one bucket for everyone, leased for 2 s. It reads commands on stdin: {@code
 * RUN <limit> <calls>} makes the calls and prints {@code ADMITTED <n> TAKEN <tokens leased> HELD <tokens held, not spent>}; {@code
 * RETURN} gives every lease back and prints {@code RETURNED}.
 */
public final class LeaseChild {

    private LeaseChild() {}

    public static void main(String[] args) throws Exception {
        // A budget for a machine shared with other builds, and closed when Redis is slow anyway: a call that
        // waited past the budget must not be an admission the count then blames on the leases.
        Map<String, String> p = new HashMap<>(Map.of(
                "tollgate.redis.url", args[0],
                "tollgate.local-denials", "0",
                "tollgate.redis.timeout", "5s",
                "tollgate.fail-open", "false"));
        for (int i = 0; i <= 10; i++) {
            String l = "tollgate.limits.q" + i + ".";
            p.putAll(Map.of(
                    l + "capacity", "100",
                    l + "refill-tokens", "0",
                    l + "persist", "true",
                    l + "key", "global",
                    l + "lease", "2s"));
        }
        int servers = Integer.parseInt(args[1]);
        AtomicLong taken = new AtomicLong();
        try (Engine engine = Engine.builder(SettingsReader.read(PropertySource.of(p)))
                .serverCount(() -> servers)
                .leaseListener(new LeaseListener() {
                    @Override
                    public void onTaken(LimitSpec limit, long tokens) {
                        taken.addAndGet(tokens);
                    }
                })
                .build()) {
            engine.check("q10", "warm-up");
            engine.limiter().returnLeases();
            System.out.println("READY");
            BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                String[] w = line.split(" ");
                if (w[0].equals("RUN")) {
                    taken.set(0);
                    int admitted = 0;
                    for (int i = 0; i < Integer.parseInt(w[2]); i++) {
                        admitted += engine.check(w[1], "any").allowed() ? 1 : 0;
                    }
                    System.out.println("ADMITTED " + admitted + " TAKEN " + taken.get() + " HELD "
                            + engine.limiter().leasedTokens());
                } else if (w[0].equals("RETURN")) {
                    engine.limiter().returnLeases();
                    System.out.println("RETURNED");
                }
            }
        }
    }
}
