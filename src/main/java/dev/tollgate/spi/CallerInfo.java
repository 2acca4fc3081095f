package dev.tollgate.spi;

import java.security.Principal;
import java.util.Optional;

/** What is known of the caller of a limited call, for {@link KeyResolver}s. */
public interface CallerInfo {

    /** The client's address: the TCP peer, or the client a trusted proxy forwarded for. */
    Optional<String> clientAddress();

    /** The authenticated caller, if any. */
    Optional<Principal> principal();

    /** A request header's value, when the call came in over HTTP. */
    Optional<String> header(String name);
}
