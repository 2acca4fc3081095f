package dev.tollgate.demo;

import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;

/** The demo service's JAX-RS application. Not part of the library jar. */
@ApplicationPath("/")
public class DemoApplication extends Application {}
