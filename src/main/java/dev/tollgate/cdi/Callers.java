package dev.tollgate.cdi;

import dev.tollgate.spi.CallerInfo;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import jakarta.servlet.http.HttpServletRequest;
import java.security.Principal;
import java.util.Optional;

/** The caller of the business method running now: its HTTP request, if any, and its principal. */
@ApplicationScoped
public class Callers {

    @Inject
    TollgateRuntime runtime;

    @Inject
    Instance<HttpServletRequest> request;

    @Inject
    Instance<Principal> principal;

    public CallerInfo current() {
        Optional<CallerInfo> http = Optional.empty();
        try {
            HttpServletRequest r = request.get();
            r.getRemoteAddr();
            http = Optional.of(new HttpCallerInfo(r, runtime.tollgate().clientAddresses(), () -> null));
        } catch (RuntimeException noRequest) {
            // Not in an HTTP request: ip and header keys have nothing to go on.
        }
        Optional<Principal> p;
        try {
            p = Optional.ofNullable(principal.get())
                    .filter(x -> x.getName() != null && !"UNAUTHENTICATED".equals(x.getName()));
        } catch (RuntimeException none) {
            p = Optional.empty();
        }
        return new InvocationCallerInfo(http, p);
    }
}
