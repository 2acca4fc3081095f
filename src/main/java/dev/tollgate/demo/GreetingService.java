package dev.tollgate.demo;

import dev.tollgate.RateKey;
import dev.tollgate.RateLimited;
import jakarta.ejb.Stateless;

/** A stateless session bean with limited business methods. */
@Stateless
public class GreetingService {

    @RateLimited("demo-ejb")
    public String greet() {
        return "hello from an EJB\n";
    }

    @RateLimited("demo-user")
    public String greetUser(@RateKey String user) {
        return "hello " + user + "\n";
    }
}
