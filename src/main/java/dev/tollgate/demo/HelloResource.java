package dev.tollgate.demo;

import dev.tollgate.Acquisition;
import dev.tollgate.ConcurrencyLimited;
import dev.tollgate.CountOn;
import dev.tollgate.DistributedLock;
import dev.tollgate.LockHandle;
import dev.tollgate.RateCost;
import dev.tollgate.RateLimited;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.container.AsyncResponse;
import jakarta.ws.rs.container.Suspended;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

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

    @Inject
    LongReportJob longJob;

    @Inject
    DistributedLock locks;

    @Inject
    InFlight inFlight;

    @Inject
    PartnerClient partner;

    @Inject
    FreeTierGreeter freeTier;

    @Inject
    PaidTierGreeter paidTier;

    @Inject
    Accounts accounts;

    @Inject
    HandWrittenLimit byHand;

    /** Limited by the JAX-RS filter with limit {@code demo}, keyed by client address. */
    @GET
    @Path("/hello")
    @RateLimited("demo")
    public String hello() {
        return "hello\n";
    }

    /** Under a shadow limit ({@code demo-shadow}): never denied; past 3 a minute, counted as would_deny. */
    @GET
    @Path("/shadow")
    @RateLimited("demo-shadow")
    public String shadow() {
        return "hello\n";
    }

    /** Under {@code demo-reload}, whose capacity the tests change in {@code tollgate.config.file} while it runs. */
    @GET
    @Path("/reload")
    @RateLimited("demo-reload")
    public String reload() {
        return "hello\n";
    }

    /** Sibling beans sharing one inherited method, each limited by its own type: {@code demo-free}, {@code demo-paid}. */
    @GET
    @Path("/tier/{tier}")
    public String tier(@PathParam("tier") String tier) {
        return "paid".equals(tier) ? paidTier.greet() : freeTier.greet();
    }

    /** The same, unlimited: the baseline for the filter's cost. */
    @GET
    @Path("/unlimited")
    public String unlimited() {
        return "hello\n";
    }

    /**
     * The same under the leased limit {@code demo-leased} (as {@code GET /demo/leased}), on this resource:
     * the HTTP experiment's leased row, timed beside {@code /demo/unlimited} on the same bean.
     */
    @GET
    @Path("/hello-leased")
    @RateLimited("demo-leased")
    public String helloLeased() {
        return "hello\n";
    }

    /**
     * The same, limited by hand instead ({@link HandWrittenLimit}): one {@code EVALSHA} of Tollgate's
     * script, 200 or 429; {@code 404} unless {@code demo.by-hand.enabled=true} with a Redis URL.
     */
    @GET
    @Path("/by-hand")
    public Response byHand(@Context HttpServletRequest request) {
        if (!byHand.on()) {
            return Response.status(Response.Status.NOT_FOUND).build();
        }
        return byHand.allowed(request.getRemoteAddr())
                ? Response.ok("hello\n").build()
                : Response.status(Response.Status.TOO_MANY_REQUESTS).build();
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

    /**
     * The same limit on an asynchronous resource method: the answer is written from another thread,
     * still counted once ({@code demo-both}).
     */
    @GET
    @Path("/both-async")
    @RateLimited("demo-both")
    public void bothAsync(@Suspended AsyncResponse response) {
        CompletableFuture.runAsync(() -> response.resume("hello\n"));
    }

    /**
     * Starts the kept-alive 3 s job (lock ttl 1 s) and says how it went on this server; {@code
     * held=true}: the job runs until {@code POST /demo/long-job/release} (at most a minute) instead.
     */
    @POST
    @Path("/long-job")
    public String startLongJob(@QueryParam("held") boolean held) throws InterruptedException {
        if (held) {
            longJob.hold();
        }
        longJob.run(held);
        return longJob.status();
    }

    /** Ends this server's held long job. */
    @POST
    @Path("/long-job/release")
    public String releaseLongJob() {
        longJob.release();
        return longJob.status();
    }

    /** {@code runs=<n> lost=<n>}: the long job's runs and lost locks on this server. */
    @GET
    @Path("/long-job")
    public String longJobStatus() {
        return longJob.status();
    }

    /**
     * Waits up to {@code maxWaitMs} for the long job's lock, then lets it go: {@code acquired <ms>},
     * {@code held-elsewhere <ms>} or {@code unavailable <ms>}.
     */
    @POST
    @Path("/lock-wait")
    public String waitForLock(@QueryParam("maxWaitMs") @DefaultValue("5000") long maxWaitMs) {
        long start = System.nanoTime();
        Acquisition a = locks.tryAcquire(LongReportJob.LOCK, Duration.ofSeconds(1), Duration.ofMillis(maxWaitMs));
        long millis = (System.nanoTime() - start) / 1_000_000;
        a.handle().ifPresent(LockHandle::close);
        String outcome = a instanceof Acquisition.Acquired
                ? "acquired"
                : a instanceof Acquisition.HeldElsewhere ? "held-elsewhere" : "unavailable";
        return outcome + " " + millis + "\n";
    }

    /** A second of work, at most two at once per client address ({@code demo-slow}): more get a 429. */
    @GET
    @Path("/slow")
    @ConcurrencyLimited("demo-slow")
    public String slow() throws InterruptedException {
        long start = InFlight.micros();
        Thread.sleep(1000);
        return "done " + start + " " + InFlight.micros() + "\n";
    }

    /** {@code ms} of work, at most four at once across all servers ({@code demo-inflight}). */
    @GET
    @Path("/inflight")
    public String inflight(@QueryParam("ms") @DefaultValue("200") long ms) throws InterruptedException {
        return inFlight.work(Math.min(ms, 10_000));
    }

    /** Calls the partner limited to 2 per second; a call waits up to 3 s for its turn ({@code demo-partner}). */
    @GET
    @Path("/outbound")
    public String outbound() {
        return partner.call();
    }

    /** The same through an EJB {@code @Asynchronous} method, which waits on its own thread. */
    @GET
    @Path("/outbound-async")
    public String outboundAsync() throws Exception {
        try {
            return partner.callLater().get();
        } catch (java.util.concurrent.ExecutionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : e;
        }
    }

    /** Under two limits at once, all or nothing: bursts of 5 (1 back per second) and 100 per day. */
    @GET
    @Path("/multi")
    @RateLimited({"demo-multi-burst", "demo-multi-day"})
    public String multi() {
        return "hello\n";
    }

    /** Keyed by {@code X-Api-Key}, limited by the key's plan ({@link DemoPlans}): free 5, pro 50 per minute. */
    @GET
    @Path("/plan")
    @RateLimited("demo-plan")
    public String plan() {
        return "hello\n";
    }

    /** Costs as many tokens as rows are exported, of 100 per minute. */
    @POST
    @Path("/export")
    @RateLimited("demo-export")
    public String export(@QueryParam("rows") @RateCost long rows) {
        return "exported " + rows + " rows\n";
    }

    /**
     * Costs as many entries of a sliding window of 2,000 an hour as rows are exported; one call takes at
     * most 1,000 (a sliding window's largest cost): more is a {@code 429} that can never pass.
     */
    @POST
    @Path("/export-window")
    @RateLimited("demo-export-window")
    public String exportWindow(@QueryParam("rows") @RateCost long rows) {
        return "exported " + rows + " rows\n";
    }

    /** As {@code /export-window}, limited inside a business method ({@link Accounts#exportWindow}). */
    @POST
    @Path("/export-window-cdi")
    public String exportWindowCdi(@QueryParam("rows") long rows) {
        return "exported " + accounts.exportWindow(rows) + " rows\n";
    }

    /** Counts failed logins only: 3 per 15 minutes per client, after which even a correct login waits. */
    @POST
    @Path("/login")
    @RateLimited(value = "demo-login", countOn = CountOn.FAILURE)
    public Response login(@QueryParam("ok") boolean ok) {
        return ok
                ? Response.ok("welcome\n").build()
                : Response.status(Response.Status.UNAUTHORIZED)
                        .entity("wrong password\n")
                        .build();
    }

    /** As {@code /export}, limited inside a business method ({@link Accounts#export}). */
    @POST
    @Path("/export-cdi")
    public String exportCdi(@QueryParam("rows") long rows) {
        return "exported " + accounts.export(rows) + " rows\n";
    }

    /** As {@code /login}, counted inside a business method ({@link Accounts#login}). */
    @POST
    @Path("/login-cdi")
    public Response loginCdi(@QueryParam("ok") boolean ok) {
        try {
            accounts.login(ok);
            return Response.ok("welcome\n").build();
        } catch (IllegalArgumentException e) {
            return Response.status(Response.Status.UNAUTHORIZED)
                    .entity("wrong password\n")
                    .build();
        }
    }
}
