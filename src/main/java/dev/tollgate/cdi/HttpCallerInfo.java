package dev.tollgate.cdi;

import dev.tollgate.internal.http.ClientAddresses;
import dev.tollgate.spi.CallerInfo;
import jakarta.servlet.http.HttpServletRequest;
import java.security.Principal;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/** The caller of an HTTP request. */
public final class HttpCallerInfo implements CallerInfo {

    private final HttpServletRequest request;
    private final ClientAddresses addresses;
    private final Supplier<Principal> principal;

    /**
     * @param principal the JAX-RS security context's principal (null: the servlet request's), asked only
     *     when a key or a plan needs it: the security context costs a lookup
     */
    public HttpCallerInfo(HttpServletRequest request, ClientAddresses addresses, Supplier<Principal> principal) {
        this.request = request;
        this.addresses = addresses;
        this.principal = principal;
    }

    @Override
    public Optional<String> clientAddress() {
        List<String> lines = addresses
                .header()
                .map(h -> request.getHeaders(h.headerName()))
                .<List<String>>map(Collections::list)
                .orElse(List.of());
        return Optional.of(addresses.clientKey(request.getRemoteAddr(), lines));
    }

    @Override
    public Optional<Principal> principal() {
        return Optional.ofNullable(principal.get()).or(() -> Optional.ofNullable(request.getUserPrincipal()));
    }

    @Override
    public Optional<String> header(String name) {
        return Optional.ofNullable(request.getHeader(name));
    }
}
