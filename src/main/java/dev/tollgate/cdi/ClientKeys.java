package dev.tollgate.cdi;

import dev.tollgate.internal.ratelimit.KeySpec;
import dev.tollgate.internal.ratelimit.LimitSpec;
import dev.tollgate.spi.CallerInfo;
import dev.tollgate.spi.KeyResolver;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.Vetoed;
import jakarta.enterprise.inject.literal.NamedLiteral;
import java.security.Principal;

/**
 * Turns a limit's {@code key} setting and what is known of the caller into a client key (whose bucket).
 * A {@code @Singleton} of {@link TollgateBeans}, so injected without a client proxy.
 */
@Vetoed
public class ClientKeys {

    private final Instance<KeyResolver> resolvers;

    /** @param resolvers every {@code KeyResolver} bean ({@code @Any}), selected by name */
    ClientKeys(Instance<KeyResolver> resolvers) {
        this.resolvers = resolvers;
    }

    public String keyFor(LimitSpec limit, CallerInfo caller) {
        return clientKey(limit.key(), caller);
    }

    /** The client key that {@code spec} names for {@code caller}. */
    public String keyFor(KeySpec spec, CallerInfo caller) {
        return clientKey(spec, caller);
    }

    private String clientKey(KeySpec spec, CallerInfo caller) {
        if (spec instanceof KeySpec.Ip) {
            return caller.clientAddress().orElse("unknown");
        }
        if (spec instanceof KeySpec.Principal) {
            return caller.principal().map(Principal::getName).orElse("anonymous");
        }
        if (spec instanceof KeySpec.Header h) {
            return caller.header(h.name()).orElse("");
        }
        if (spec instanceof KeySpec.Bean b) {
            return resolvers.select(NamedLiteral.of(b.name())).get().resolve(caller);
        }
        return "*";
    }
}
