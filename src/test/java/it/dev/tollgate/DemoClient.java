package it.dev.tollgate;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/**
 * The demo service's resource ({@code dev.tollgate.demo.HelloResource}) as a typed client. Methods answer
 * {@link Response} where a test reads the status and the rate-limit headers; {@code client} is sent as
 * {@code X-Forwarded-For}, which the IT servers trust from 127.0.0.1, to pick a bucket. A proxy serves one
 * call at a time: for concurrent calls see {@link Load}. It accepts what the demo writes: text, and
 * problem details for a rejection.
 */
@Path("/demo")
@Produces({MediaType.TEXT_PLAIN, DemoClient.PROBLEM_JSON})
public interface DemoClient {

    /** What a rejection is written as (RFC 9457). */
    String PROBLEM_JSON = "application/problem+json";

    /** Limit {@code demo}, keyed by the caller's address. */
    @GET
    @Path("/hello")
    Response hello();

    @GET
    @Path("/hello")
    Response helloFor(@HeaderParam("X-Forwarded-For") String client);

    @GET
    @Path("/hello")
    Response helloForwarded(@HeaderParam("Forwarded") String forwarded);

    @GET
    @Path("/unlimited")
    Response unlimited();

    /** The experiments' hand-written check, off unless {@code demo.by-hand.enabled=true}. */
    @GET
    @Path("/by-hand")
    Response byHand();

    /** An EJB's limited method ({@code demo-ejb}). */
    @GET
    @Path("/ejb")
    Response ejb(@HeaderParam("X-Forwarded-For") String client);

    /** A CDI bean's limited method ({@code demo-cdi}, fails closed). */
    @GET
    @Path("/cdi")
    Response cdi(@HeaderParam("X-Forwarded-For") String client);

    /** Limit {@code demo-user}, keyed by the EJB's {@code @RateKey} parameter. */
    @GET
    @Path("/user/{name}")
    Response user(@PathParam("name") String name);

    /** A sliding window ({@code demo-window}). */
    @GET
    @Path("/window")
    Response window(@HeaderParam("X-Forwarded-For") String client);

    /** The filter and the interceptor on one method ({@code demo-both}). */
    @GET
    @Path("/both")
    Response both(@HeaderParam("X-Forwarded-For") String client);

    /** The same limit on an asynchronous resource method ({@code demo-both}). */
    @GET
    @Path("/both-async")
    Response bothAsync(@HeaderParam("X-Forwarded-For") String client);

    /** Starts the once-per-cluster job; answers how many times it has run on this server. */
    @POST
    @Path("/job")
    Response startJob();

    /** How many times the job has run on this server. */
    @GET
    @Path("/job")
    String jobRuns();

    /** A second of work, at most two at once per client ({@code demo-slow}). */
    @GET
    @Path("/slow")
    Response slow(@HeaderParam("X-Forwarded-For") String client);

    /** {@code ms} of work, at most four at once across both servers ({@code demo-inflight}). */
    @GET
    @Path("/inflight")
    Response inflight(@QueryParam("ms") long ms, @HeaderParam("X-Forwarded-For") String client);

    /** Starts the 3 s job under a kept-alive 1 s lock; answers {@code runs=<n> lost=<n>} on this server. */
    @POST
    @Path("/long-job")
    Response startLongJob();

    /** Starts the long job held: it runs until {@link #releaseLongJob()} (at most a minute). */
    @POST
    @Path("/long-job")
    Response startHeldLongJob(@QueryParam("held") boolean held);

    /** Ends this server's held long job. */
    @POST
    @Path("/long-job/release")
    String releaseLongJob();

    /** {@code runs=<n> lost=<n>}: the long job's runs and lost locks on this server. */
    @GET
    @Path("/long-job")
    String longJob();

    /** Waits up to {@code maxWaitMs} for the long job's lock: {@code acquired|held-elsewhere|unavailable <ms>}. */
    @POST
    @Path("/lock-wait")
    String lockWait(@QueryParam("maxWaitMs") long maxWaitMs);

    /** Calls the partner limited to 2 per second, waiting up to 3 s ({@code demo-partner}). */
    @GET
    @Path("/outbound")
    Response outbound();

    /** The same through an EJB {@code @Asynchronous} method. */
    @GET
    @Path("/outbound-async")
    Response outboundAsync();

    /** Limits {@code demo-multi-burst} and {@code demo-multi-day} at once, keyed by the caller's address. */
    @GET
    @Path("/multi")
    Response multi(@HeaderParam("X-Forwarded-For") String client);

    /** Limit {@code demo-plan}, keyed by the API key, under the key's plan. */
    @GET
    @Path("/plan")
    Response plan(@HeaderParam("X-Api-Key") String apiKey);

    /** Limit {@code demo-charge}, with an {@code Idempotency-Key} (null: none). */
    @POST
    @Path("/charge")
    Response charge(@HeaderParam("Idempotency-Key") String key, @HeaderParam("X-Forwarded-For") String client);

    /** Limit {@code demo-charge} on another method. */
    @PUT
    @Path("/charge")
    Response replaceCharge(@HeaderParam("Idempotency-Key") String key, @HeaderParam("X-Forwarded-For") String client);

    /** Limit {@code demo-settle} from code: {@code estimate} up front, settled at {@code actual}. */
    @POST
    @Path("/settle")
    Response settle(
            @QueryParam("customer") String customer,
            @QueryParam("estimate") long estimate,
            @QueryParam("actual") long actual);

    /** Limit {@code demo-settle} from an annotated method that reports its {@code actual} cost. */
    @POST
    @Path("/settle/reported")
    Response settleReported(
            @QueryParam("customer") String customer,
            @QueryParam("estimate") long estimate,
            @QueryParam("actual") long actual);

    /** Limits {@code demo-plan} and {@code demo-monthly} per API key, with an {@code Idempotency-Key} (null: none). */
    @POST
    @Path("/metered/charge")
    Response meteredCharge(@HeaderParam("X-Api-Key") String apiKey, @HeaderParam("Idempotency-Key") String key);

    /** Limits {@code demo-plan} and {@code demo-monthly} per API key, the quota settled at {@code units}. */
    @POST
    @Path("/metered/settle")
    Response meteredSettle(@HeaderParam("X-Api-Key") String apiKey, @QueryParam("units") long units);

    /** Limit {@code demo-export}; the call costs {@code rows} (sent as written, to send what is no number). */
    @POST
    @Path("/export")
    Response export(@QueryParam("rows") String rows, @HeaderParam("X-Forwarded-For") String client);

    /** Limit {@code demo-login}, counting failed logins only. */
    @POST
    @Path("/login")
    Response login(@QueryParam("ok") boolean ok, @HeaderParam("X-Forwarded-For") String client);

    /** Limit {@code demo-export} inside a business method; the call costs {@code rows}. */
    @POST
    @Path("/export-cdi")
    Response exportCdi(@QueryParam("rows") long rows, @HeaderParam("X-Forwarded-For") String client);

    /** Limit {@code demo-export-window}, a sliding window of 2,000; the call costs {@code rows}. */
    @POST
    @Path("/export-window")
    Response exportWindow(@QueryParam("rows") long rows, @HeaderParam("X-Forwarded-For") String client);

    /** Limit {@code demo-export-window} inside a business method; the call costs {@code rows}. */
    @POST
    @Path("/export-window-cdi")
    Response exportWindowCdi(@QueryParam("rows") long rows, @HeaderParam("X-Forwarded-For") String client);

    /** A leased limit ({@code demo-leased}), keyed by the caller's address. */
    @GET
    @Path("/leased")
    Response leased(@HeaderParam("X-Forwarded-For") String client);

    /** Limit {@code demo-login} inside a business method, counting failed logins only. */
    @POST
    @Path("/login-cdi")
    Response loginCdi(@QueryParam("ok") boolean ok, @HeaderParam("X-Forwarded-For") String client);
}
