package dev.tollgate.demo;

import dev.tollgate.RateLimitExceededException;
import jakarta.annotation.Resource;
import jakarta.ejb.EJB;
import jakarta.ejb.Stateless;
import jakarta.transaction.TransactionSynchronizationRegistry;

/**
 * A transactional caller of a limited EJB method: the rejection is an application exception, so it
 * arrives unwrapped and leaves the caller's transaction as it was (not marked for rollback).
 */
@Stateless
public class TransactionalGreeter {

    @EJB
    GreetingService greetings;

    @Resource
    TransactionSynchronizationRegistry transaction;

    /** {@code greeted|denied rollbackOnly=<the caller's transaction marked for rollback>}. */
    public String greetInTransaction(String user) {
        String outcome;
        try {
            greetings.greetUser(user);
            outcome = "greeted";
        } catch (RateLimitExceededException e) {
            outcome = "denied";
        }
        return outcome + " rollbackOnly=" + transaction.getRollbackOnly() + "\n";
    }
}
