package dev.tollgate.internal.engine;

/**
 * A client this server denied often lately ({@link Tollgate#mostDeniedClients()}).
 *
 * @param limit the limit that denied it
 * @param clientHash the client key's hash, as in the limit's Redis key, the audit lines and a peek's answer
 *     (never the key: it may be an API key)
 * @param denied how many of its calls were denied, at least (a client counted since it was last taken
 *     into the top may have been denied more); held denials included
 */
public record DeniedClient(String limit, String clientHash, long denied) {}
