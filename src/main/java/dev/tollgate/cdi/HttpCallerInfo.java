package dev.tollgate.cdi;

import dev.tollgate.CallerInfo;
import dev.tollgate.http.ClientAddresses;
import jakarta.servlet.http.HttpServletRequest;
import java.security.Principal;
import java.util.Optional;

/** The caller of an HTTP request. */
public final class HttpCallerInfo implements CallerInfo {

    private final HttpServletRequest request;
    private final ClientAddresses addresses;
    private final Principal principal;

    public HttpCallerInfo(HttpServletRequest request, ClientAddresses addresses, Principal principal) {
        this.request = request;
        this.addresses = addresses;
        this.principal = principal;
    }

    @Override
    public Optional<String> clientAddress() {
        return Optional.of(addresses.clientKey(
                request.getRemoteAddr(), request.getHeader("Forwarded"), request.getHeader("X-Forwarded-For")));
    }

    @Override
    public Optional<Principal> principal() {
        return Optional.ofNullable(principal).or(() -> Optional.ofNullable(request.getUserPrincipal()));
    }

    @Override
    public Optional<String> header(String name) {
        return Optional.ofNullable(request.getHeader(name));
    }
}
