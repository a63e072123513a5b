/**
 * The local HTTP service, on the JDK's HTTP server: routes, the bearer token and allowed origins,
 * limits on connections, bodies and time, and the mapping of every error to a status and a JSON
 * body. It speaks through io.turndiff.api; the hook endpoints hand a runtime's payload to
 * io.turndiff.hooks.
 */
package io.turndiff.server;
