/**
 * Client identity over HTTP, without HTTP types: who the client is behind trusted proxies ({@link
 * dev.tollgate.http.ClientAddresses}), the one header they write ({@link dev.tollgate.http.ClientHeader}),
 * literal addresses parsed without any name lookup ({@link dev.tollgate.http.IpLiteral}), address blocks
 * ({@link dev.tollgate.http.Cidr}).
 *
 * <p>Uses only the JDK: no servlet, no JAX-RS (the adapters hand it strings). Internal.
 */
package dev.tollgate.http;
