package dev.tollgate.demo;

import dev.tollgate.restclient.PacingFilter;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import org.eclipse.microprofile.rest.client.annotation.RegisterProvider;

/** The same partner through a Rest Client that paces itself: one annotation. */
@Path("/demo/pacing/partner")
@RegisterProvider(PacingFilter.class)
public interface PacedPartnerApi {

    @GET
    String call();
}
