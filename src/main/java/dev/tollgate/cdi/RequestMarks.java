package dev.tollgate.cdi;

import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.Vetoed;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.http.HttpServletRequest;

/**
 * Where the interceptor reads the JAX-RS filter's {@link FilterMarks}: the attributes of the HTTP
 * request the JAX-RS runtime dispatches on this thread now, through the runtime's own view of it, which
 * the filter hands over ({@link #readFrom}) when it first runs. That view is a proxy the runtime binds to
 * the request it dispatches on the calling thread, and to none outside a dispatch (asking it then fails),
 * so the marks are tied to their request exactly as the attribute is: a call outside the filter's
 * request, on whatever thread, finds none and is charged. It costs a thread-local look-up, where CDI's
 * {@code HttpServletRequest} is a bean made anew in every request that asks for it. Until the filter has
 * run, CDI's is asked. A {@code @Singleton} of {@link TollgateBeans}, so injected without a client proxy: the
 * interceptor asks it in every call.
 */
@Vetoed
public class RequestMarks {

    private final Instance<HttpServletRequest> cdiRequest;
    private volatile ServletRequest dispatched;

    RequestMarks(Instance<HttpServletRequest> cdiRequest) {
        this.cdiRequest = cdiRequest;
    }

    /**
     * The JAX-RS runtime's view of the request it dispatches on the calling thread (the filter's {@code
     * @Context HttpServletRequest}): one object for every request, so only the first is kept.
     */
    public void readFrom(ServletRequest dispatchedRequest) {
        if (dispatched == null) {
            dispatched = dispatchedRequest;
        }
    }

    /** What the JAX-RS filter checked in the HTTP request running now on this thread; null outside one. */
    FilterMarks current() {
        ServletRequest r = dispatched;
        try {
            return FilterMarks.of(r != null ? r : cdiRequest.get());
        } catch (RuntimeException noRequest) {
            return null; // not in a request the runtime dispatches: the filter checked nothing
        }
    }
}
