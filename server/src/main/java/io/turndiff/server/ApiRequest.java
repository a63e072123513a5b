package io.turndiff.server;

import io.turndiff.api.RequestBodies;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One request as the endpoints see it: path parameters, query parameters and the body. Query
 * parameters are read as strictly as bodies: the router refused unknown names before, a parameter
 * given twice is refused unless it is a list, and numbers must be integers within their range.
 */
final class ApiRequest {

  private final Map<String, String> pathParameters;
  private final Map<String, List<String>> query;
  private final byte[] body;
  private final EarlyHeaders early;
  private final Optional<PanelSessions.Session> panelSession;

  /**
   * @param panelSession the panel's login session when the request came with its cookie; empty when
   *     it came with the bearer token
   */
  ApiRequest(
      Map<String, String> pathParameters,
      Map<String, List<String>> query,
      byte[] body,
      EarlyHeaders early,
      Optional<PanelSessions.Session> panelSession) {
    this.pathParameters = pathParameters;
    this.query = query;
    this.body = body;
    this.early = early;
    this.panelSession = panelSession;
  }

  /** Refuses a request of the panel (cookie) where only the bearer token may call. */
  void requireBearer(String what) {
    if (panelSession.isPresent()) {
      throw new ApiError(403, "forbidden", what + " takes the bearer token, not a panel session");
    }
  }

  /** The panel's login session; a bearer call is refused here. */
  PanelSessions.Session requirePanel(String what) {
    return panelSession.orElseThrow(
        () -> new ApiError(403, "forbidden", what + " is for the panel (a login session)"));
  }

  /**
   * Sends {@code 200} and {@code headers} now, before the body is ready (see {@link EarlyHeaders}).
   */
  void sendHeadersNow(Map<String, String> headers) {
    early.send(headers);
  }

  String path(String name) {
    return pathParameters.get(name);
  }

  Optional<String> query(String name) {
    List<String> values = query.getOrDefault(name, List.of());
    if (values.size() > 1) {
      throw new ApiError(
          400,
          "bad_request",
          "query parameter '" + name + "' is given " + values.size() + " times; give it once");
    }
    return values.isEmpty() ? Optional.empty() : Optional.of(values.getFirst());
  }

  String requireQuery(String name) {
    return query(name)
        .orElseThrow(
            () -> new ApiError(400, "bad_request", "query parameter '" + name + "' is required"));
  }

  List<String> queryAll(String name) {
    return query.getOrDefault(name, List.of());
  }

  /** An integer parameter within {@code min..max}, or {@code fallback} when absent. */
  long queryLong(String name, long fallback, long min, long max) {
    Optional<String> value = query(name);
    if (value.isEmpty()) {
      return fallback;
    }
    String text = value.get();
    long parsed;
    try {
      parsed = text.matches("[0-9]{1,19}") ? Long.parseLong(text) : Long.MIN_VALUE;
    } catch (NumberFormatException overflow) {
      parsed = Long.MIN_VALUE;
    }
    if (parsed < min || parsed > max) {
      throw new ApiError(
          400,
          "bad_request",
          "query parameter '"
              + name
              + "' must be an integer within "
              + min
              + ".."
              + max
              + ", not '"
              + text
              + "'");
    }
    return parsed;
  }

  /** The body's bytes as they came, for a payload another program defines. */
  byte[] rawBody() {
    return body.clone();
  }

  /** The body bound to its record; see {@link RequestBodies}. */
  <T> T body(Class<T> type) {
    return RequestBodies.read(body, type);
  }
}
