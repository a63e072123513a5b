package io.turndiff.server;

import io.turndiff.server.Gate.Caller;
import io.turndiff.server.Gate.Verdict;
import java.io.IOException;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * The gates every request passes before an endpoint sees it, in the one order they run in
 * (docs/review-panel.md, section 4, "Checking a request"). Each gate has one job and its own test;
 * this class only puts them in a row:
 *
 * <ol>
 *   <li>{@link HostGate}: the {@code Host} is this service's loopback address (no DNS rebinding);
 *   <li>{@link HeadersOnceGate}: {@code Origin}, {@code Authorization}, {@code Cookie} and the CSRF
 *       header are given at most once;
 *   <li>{@link PanelFilesGate}: a path outside {@code /v1/} is one of the panel's static files,
 *       answered here: they hold no data, so only the two gates above guard them;
 *   <li>{@link HealthChallengeGate}: a daemon's identity proof, the one API request answered
 *       without a credential;
 *   <li>for a bearer call ({@link Caller#BEARER}): {@link CorsGate}, then {@link BearerTokenGate};
 *   <li>for the panel ({@link Caller#PANEL}): {@link PanelOriginGate}, {@link FetchSiteGate},
 *       {@link PanelLoginGate} (which answers {@code POST /v1/login}), then {@link
 *       PanelSessionGate};
 *   <li>{@link BodyLimitGate}: the declared body is within the route's limit.
 * </ol>
 *
 * <p>A request that passes them all goes to its route with the {@link Passage} they made; no byte
 * of its body has been read before the last gate passed it.
 */
final class SecurityGates {

  private final List<Gate> gates;

  private SecurityGates(List<Gate> gates) {
    this.gates = List.copyOf(gates);
  }

  /**
   * The row for a service on {@code port}.
   *
   * @param proof the identity proof for a nonce, when the service is a daemon that answers the
   *     challenge; empty for a service that needs the token everywhere
   * @param hookBodyBytes the most a hook endpoint's body may hold (a runtime's payload, perhaps a
   *     whole file), when that is more than {@code maxBodyBytes}
   */
  static SecurityGates of(
      int port,
      byte[] token,
      Set<String> allowedOrigins,
      int maxBodyBytes,
      int hookBodyBytes,
      PanelFiles panel,
      PanelLogin login,
      Optional<Function<String, ApiResponse>> proof) {
    return new SecurityGates(
        List.of(
            new HostGate(port),
            new HeadersOnceGate(),
            new PanelFilesGate(panel),
            new HealthChallengeGate(allowedOrigins, proof),
            new CorsGate(allowedOrigins).onlyFor(Caller.BEARER),
            new BearerTokenGate(token).onlyFor(Caller.BEARER),
            new PanelOriginGate(login).onlyFor(Caller.PANEL),
            new FetchSiteGate().onlyFor(Caller.PANEL),
            new PanelLoginGate(login, new BodyLimit(maxBodyBytes)).onlyFor(Caller.PANEL),
            new PanelSessionGate(login).onlyFor(Caller.PANEL),
            new BodyLimitGate(maxBodyBytes, hookBodyBytes)));
  }

  /**
   * The row for a request on the service's Unix domain socket. The socket's file mode (0600, in the
   * 0700 run directory) and the peer's credentials, checked before a byte was read ({@link
   * PeerCheck}), have already proved the caller is this user: that stands in for the token. No
   * browser can reach a socket, so the panel's gates (its files, origins, cookie) have nothing to
   * do here, nor has {@code Host}, which names no address on a socket.
   */
  static SecurityGates socket(int maxBodyBytes, int hookBodyBytes) {
    return new SecurityGates(
        List.of(
            new HeadersOnceGate(),
            (request, passage) -> new Verdict.Pass(passage.withCredential()),
            new BodyLimitGate(maxBodyBytes, hookBodyBytes)));
  }

  /**
   * Runs the request through the gates in order, each given the passage the one before made: the
   * first answer or stop ends the row; after the last gate, the request passes.
   */
  Verdict pass(RequestView request) {
    Passage passage = Passage.START;
    for (Gate gate : gates) {
      Verdict verdict;
      try {
        verdict = gate.check(request, passage);
      } catch (RuntimeException | IOException stopped) {
        return new Verdict.Stop(stopped, passage);
      }
      if (!(verdict instanceof Verdict.Pass(Passage next))) {
        return verdict;
      }
      passage = next;
    }
    return new Verdict.Pass(passage);
  }
}
