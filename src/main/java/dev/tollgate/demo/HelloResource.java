package dev.tollgate.demo;

import dev.tollgate.RateLimited;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/** The demo service: the same greeting behind each of Tollgate's entry points. */
@Path("/demo")
@RequestScoped
@Produces(MediaType.TEXT_PLAIN)
public class HelloResource {

    @Inject
    GreetingService ejb;

    @Inject
    CdiGreeter cdi;

    @Inject
    ReportJob job;

    /** Limited by the JAX-RS filter with limit {@code demo}, keyed by client address. */
    @GET
    @Path("/hello")
    @RateLimited("demo")
    public String hello() {
        return "hello\n";
    }

    /** The same, unlimited: the baseline for the filter's cost. */
    @GET
    @Path("/unlimited")
    public String unlimited() {
        return "hello\n";
    }

    /** Calls an EJB whose business method is limited ({@code demo-ejb}). */
    @GET
    @Path("/ejb")
    public String viaEjb() {
        return ejb.greet();
    }

    /** Calls a CDI bean whose business method is limited ({@code demo-cdi}). */
    @GET
    @Path("/cdi")
    public String viaCdi() {
        return cdi.greet();
    }

    /** Limited by the EJB per user name: the {@code @RateKey} parameter is the key ({@code demo-user}). */
    @GET
    @Path("/user/{name}")
    public String perUser(@PathParam("name") String name) {
        return ejb.greetUser(name);
    }

    /** Limited by a sliding window ({@code demo-window}): at most its capacity in any window. */
    @GET
    @Path("/window")
    @RateLimited("demo-window")
    public String window() {
        return "hello\n";
    }

    /** Starts the once-per-cluster job and says how many times it has run on this server. */
    @POST
    @Path("/job")
    public String startJob() throws InterruptedException {
        job.run();
        return job.runs() + "\n";
    }

    /** How many times the job has run on this server. */
    @GET
    @Path("/job")
    public String jobRuns() {
        return job.runs() + "\n";
    }

    /** Checked by the filter and intercepted too: counted once ({@code demo-both}). */
    @GET
    @Path("/both")
    @RateLimited("demo-both")
    public String both() {
        return "hello\n";
    }
}
