package io.turndiff.server;

import io.turndiff.api.LoginRequest;
import io.turndiff.api.RequestBodies;
import io.turndiff.api.wire.WireLogin;
import io.turndiff.api.wire.WireLoginCode;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.InstantSource;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * The panel's login (docs/review-panel.md, section 4): a one-time code from {@code turndiff open}
 * (minted with the bearer token) is exchanged once for an {@code HttpOnly; SameSite=Strict} session
 * cookie and an anti-CSRF value; every later call of the page carries both. The token never reaches
 * the browser, and the code travels in the URL's fragment only.
 */
final class PanelLogin {

  static final String CSRF_HEADER = "X-Turndiff-CSRF";

  private final LoginCodes codes;
  private final PanelSessions sessions;
  private final String cookieName;
  private final Set<String> ownOrigins;

  PanelLogin(int port, InstantSource clock) {
    this.codes = new LoginCodes(clock);
    this.sessions = new PanelSessions(clock);
    // cookies are not port-scoped: the port keeps two services on one host apart
    this.cookieName = "turndiff_session_" + port;
    this.ownOrigins =
        Set.of("http://127.0.0.1:" + port, "http://localhost:" + port, "http://[::1]:" + port);
  }

  boolean ownOrigin(String origin) {
    return ownOrigins.contains(origin);
  }

  /** A fresh code, and the URL on {@code baseUrl} that logs a browser in with it. */
  WireLoginCode mint(String baseUrl, Optional<Path> workspace) {
    LoginCodes.Minted minted = codes.mint();
    String next =
        workspace.map(root -> "&next=" + percent("/w/" + percent(root.toString()))).orElse("");
    return new WireLoginCode(
        minted.code(), baseUrl + "/#login=" + minted.code() + next, minted.expiresAt().toString());
  }

  /** {@code encodeURIComponent}'s way: a space is {@code %20}, never {@code +}. */
  private static String percent(String text) {
    return URLEncoder.encode(text, StandardCharsets.UTF_8).replace("+", "%20");
  }

  /**
   * {@code POST /v1/login}: a JSON body with a good code gets a session cookie and its CSRF value.
   */
  ApiResponse login(String contentType, byte[] body) {
    String type =
        contentType == null ? "" : contentType.split(";", 2)[0].strip().toLowerCase(Locale.ROOT);
    if (!type.equals("application/json")) {
      // a cross-site form cannot send application/json without a preflight
      throw new ApiError(415, "bad_request", "the login body must be application/json");
    }
    LoginRequest request = RequestBodies.read(body, LoginRequest.class);
    if (!codes.redeem(request.code())) {
      throw new ApiError(
          401, "unauthorized", "this login code is unknown, used or expired; run turndiff open");
    }
    PanelSessions.Opened opened = sessions.open();
    return ApiResponse.ok(new WireLogin(opened.csrf(), CSRF_HEADER))
        .withHeader(
            "Set-Cookie",
            cookieName + "=" + opened.cookie() + "; HttpOnly; SameSite=Strict; Path=/");
  }

  /**
   * The login session of a page's request: its cookie must name a live session (else {@code 401},
   * no data) and its CSRF header must carry that session's value (else {@code 403 csrf}).
   */
  PanelSessions.Session authenticate(String cookieHeader, String csrf) {
    PanelSessions.Session session = session(cookieHeader);
    if (csrf == null || !RandomSecret.same(csrf.strip(), session.csrf())) {
      throw new ApiError(
          403, "csrf", "the " + CSRF_HEADER + " header is missing or not this session's");
    }
    return session;
  }

  /**
   * The live session the cookie names (else {@code 401}, no data), without its CSRF value: only for
   * the one request a page cannot add a header to ({@link PanelSessionGate}).
   */
  PanelSessions.Session session(String cookieHeader) {
    return cookie(cookieHeader)
        .flatMap(sessions::use)
        .orElseThrow(
            () ->
                new ApiError(
                    401,
                    "unauthorized",
                    "a bearer token or a panel session is required (run turndiff open for a login"
                        + " link)"));
  }

  /** {@code POST /v1/logout}: ends the session and clears its cookie. */
  ApiResponse logout(PanelSessions.Session session) {
    sessions.end(session.id());
    return new ApiResponse(204, "text/plain", new byte[0])
        .withHeader("Set-Cookie", cookieName + "=; HttpOnly; SameSite=Strict; Path=/; Max-Age=0");
  }

  private Optional<String> cookie(String header) {
    if (header == null) {
      return Optional.empty();
    }
    for (String pair : header.split(";")) {
      String[] parts = pair.strip().split("=", 2);
      if (parts.length == 2 && parts[0].equals(cookieName) && !parts[1].isEmpty()) {
        return Optional.of(parts[1]);
      }
    }
    return Optional.empty();
  }
}
