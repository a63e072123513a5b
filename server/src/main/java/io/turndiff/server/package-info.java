/**
 * The local HTTP service, on the JDK's HTTP server: the security gates every request passes, in the
 * one order {@link io.turndiff.server.SecurityGates} gives them (the Host, the headers given once,
 * the panel's files, the daemon's identity challenge, CORS and the bearer token or the panel's
 * origin and session, the body limit), each written against a {@link
 * io.turndiff.server.RequestView} rather than the server's types; then the routes, limits on
 * connections and time, and the mapping of every error to a status and a JSON body. It speaks
 * through io.turndiff.api; the hook endpoints hand a runtime's payload to io.turndiff.hooks.
 */
package io.turndiff.server;
