package dev.tollgate.jaxrs;

import dev.tollgate.ClientKeyTooLongException;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;

/**
 * A client key too long for a bucket: {@code 431 Request Header Fields Too Large} when the key is a
 * header's value, else {@code 400 Bad Request} (a {@code @RateKey} argument from a path or a
 * parameter, as the interceptor meets it), with a problem body naming the limit and the lengths, never
 * the key. Nothing was spent and the resource did not run.
 */
@Provider
public class ClientKeyTooLongMapper implements ExceptionMapper<ClientKeyTooLongException> {

    @Override
    public Response toResponse(ClientKeyTooLongException e) {
        return of(e, false);
    }

    /** The answer to {@code e}; {@code header}: the key was a request header's value. */
    static Response of(ClientKeyTooLongException e, boolean header) {
        int status = header ? 431 : 400;
        String title = header ? "Request Header Fields Too Large" : "Bad Request";
        String detail = (header ? "A request header" : "The request") + " gives limit '" + e.limitName()
                + "' a client key of " + e.length() + " characters; at most " + e.maxLength() + " are taken";
        return Response.status(status)
                .type("application/problem+json")
                .entity(RateLimitResponses.problem("about:blank", title, status, detail, e.limitName(), null))
                .build();
    }
}
