package dev.tollgate.demo;

import dev.tollgate.RateLimitExceededException;
import jakarta.inject.Inject;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/**
 * {@code GET /servlet/both}: {@link HelloResource#both()} called from a servlet, outside any JAX-RS
 * request, so the filter decided nothing and the interceptor charges {@code demo-both} itself; 200, or
 * 429 when it denies. On the same server threads as {@code GET /demo/both}, whose calls the filter
 * decided: the tests show no mark of theirs lets this call through uncharged.
 */
@WebServlet("/servlet/both")
public class ServletCalls extends HttpServlet {

    private static final long serialVersionUID = 1L;

    @Inject
    transient HelloResource resource;

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        try {
            response.getWriter().write(resource.both());
        } catch (RateLimitExceededException denied) {
            response.setStatus(429);
        }
    }
}
