package dev.tollgate.cdi;

import dev.tollgate.spi.CallerInfo;
import java.security.Principal;
import java.util.Optional;

/** The caller of a business method: the HTTP request it runs in, if any, and the caller principal. */
final class InvocationCallerInfo implements CallerInfo {

    private final Optional<CallerInfo> http;
    private final Optional<Principal> principal;

    InvocationCallerInfo(Optional<CallerInfo> http, Optional<Principal> principal) {
        this.http = http;
        this.principal = principal;
    }

    @Override
    public Optional<String> clientAddress() {
        return http.flatMap(CallerInfo::clientAddress);
    }

    @Override
    public Optional<Principal> principal() {
        return principal.or(() -> http.flatMap(CallerInfo::principal));
    }

    @Override
    public Optional<String> header(String name) {
        return http.flatMap(h -> h.header(name));
    }
}
