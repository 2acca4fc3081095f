package dev.tollgate.demo;

import dev.tollgate.spi.CallerInfo;
import dev.tollgate.spi.PlanResolver;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Named;
import jakarta.ws.rs.NotAuthorizedException;

/** The demo's plans by API key: {@code k-free-...} is plan {@code free}, {@code k-pro-...} {@code pro}; any other key 401. */
@Named("demo-plans")
@ApplicationScoped
public class DemoPlans implements PlanResolver {

    @Override
    public String plan(CallerInfo caller) {
        String key = caller.header("X-Api-Key").orElse("");
        if (key.startsWith("k-free-")) {
            return "free";
        }
        if (key.startsWith("k-pro-")) {
            return "pro";
        }
        throw new NotAuthorizedException("ApiKey realm=\"demo\"");
    }
}
