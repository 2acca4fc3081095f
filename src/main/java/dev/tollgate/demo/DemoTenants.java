package dev.tollgate.demo;

import dev.tollgate.spi.CallerInfo;
import dev.tollgate.spi.KeyResolver;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Named;

/**
 * The demo's client keys by tenant ({@code key=demo-tenants}): the part after the {@code @} of the {@code
 * X-User} header ({@code alice@acme} is {@code acme}), so every user of a tenant spends from one bucket,
 * from any address; a call without a tenant is keyed {@code no-tenant}.
 */
@Named("demo-tenants")
@ApplicationScoped
public class DemoTenants implements KeyResolver {

    @Override
    public String resolve(CallerInfo caller) {
        String user = caller.header("X-User").orElse("");
        int at = user.lastIndexOf('@');
        return at >= 0 && at < user.length() - 1 ? user.substring(at + 1) : "no-tenant";
    }
}
