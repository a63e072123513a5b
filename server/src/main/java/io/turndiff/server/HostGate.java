package io.turndiff.server;

import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * The {@code Host} must name this service's loopback address and port, in any case: a page of
 * another site whose name a DNS rebinding pointed at {@code 127.0.0.1} sends its own name, and is
 * refused before anything else, the panel's files included.
 */
final class HostGate implements Gate {

  private final Set<String> allowedHosts;

  HostGate(int port) {
    this.allowedHosts = Set.of("127.0.0.1:" + port, "localhost:" + port, "[::1]:" + port);
  }

  @Override
  public Verdict check(RequestView request, Passage passage) {
    Optional<String> host = request.header("Host");
    if (host.isEmpty() || !allowedHosts.contains(host.get().toLowerCase(Locale.ROOT))) {
      throw new ApiError(
          403,
          "forbidden_host",
          "Host '" + host.orElse(null) + "' is not this service's loopback address");
    }
    return new Verdict.Pass(passage);
  }
}
