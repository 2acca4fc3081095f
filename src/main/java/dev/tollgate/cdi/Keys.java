package dev.tollgate.cdi;

import dev.tollgate.CallerInfo;
import dev.tollgate.KeyResolver;
import dev.tollgate.ratelimit.KeySpec;
import dev.tollgate.ratelimit.LimitSpec;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.literal.NamedLiteral;
import jakarta.inject.Inject;
import java.security.Principal;

/** Turns a limit's {@code key} setting and what is known of the caller into a client key. */
@ApplicationScoped
public class Keys {

    /** Longest raw key kept; longer ones are cut before hashing, so a header cannot make us hash megabytes. */
    static final int MAX_LENGTH = 512;

    @Inject
    @Any
    Instance<KeyResolver> resolvers;

    public String keyFor(LimitSpec limit, CallerInfo caller) {
        String key = rawKey(limit.key(), caller);
        return key.length() > MAX_LENGTH ? key.substring(0, MAX_LENGTH) : key;
    }

    private String rawKey(KeySpec spec, CallerInfo caller) {
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
