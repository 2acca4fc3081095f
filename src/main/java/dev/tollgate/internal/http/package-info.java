/**
 * Client identity over HTTP, without HTTP types: who the client is behind trusted proxies ({@link
 * dev.tollgate.internal.http.ClientAddresses}), the one header they write ({@link dev.tollgate.internal.http.ClientHeader}),
 * literal addresses parsed without any name lookup ({@link dev.tollgate.internal.http.IpLiteral}), address blocks
 * ({@link dev.tollgate.internal.http.Cidr}).
 *
 * <p>Uses only the JDK: no servlet, no JAX-RS (the adapters hand it strings). Internal.
 */
package dev.tollgate.internal.http;
