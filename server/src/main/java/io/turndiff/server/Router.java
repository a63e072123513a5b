package io.turndiff.server;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Maps a method and a path such as {@code /v1/turns/{turn}/finish} to its endpoint. */
final class Router {

  @FunctionalInterface
  interface Endpoint {
    ApiResponse handle(ApiRequest request);
  }

  private record Route(String method, String[] segments, Endpoint endpoint) {
  }

  record Match(Endpoint endpoint, Map<String, String> parameters) {
  }

  private final List<Route> routes = new ArrayList<>();

  Router add(String method, String pattern, Endpoint endpoint) {
    routes.add(new Route(method, split(pattern), endpoint));
    return this;
  }

  private static String[] split(String path) {
    return path.replaceAll("^/+|/+$", "").split("/", -1);
  }

  /**
   * The endpoint for the request, or an error: {@code not_found} when no route has the path,
   * {@code method_not_allowed} when one has it for another method.
   */
  Match match(String method, String rawPath) {
    String[] segments = split(rawPath);
    boolean pathKnown = false;
    for (Route route : routes) {
      Optional<Map<String, String>> parameters = parameters(route.segments(), segments);
      if (parameters.isEmpty()) {
        continue;
      }
      pathKnown = true;
      if (route.method().equals(method)) {
        return new Match(route.endpoint(), parameters.get());
      }
    }
    if (pathKnown) {
      throw new ApiError(405, "method_not_allowed", method + " is not allowed on " + rawPath);
    }
    throw new ApiError(404, "not_found", "no endpoint at " + rawPath);
  }

  private static Optional<Map<String, String>> parameters(String[] pattern, String[] segments) {
    if (pattern.length != segments.length) {
      return Optional.empty();
    }
    Map<String, String> parameters = new HashMap<>();
    for (int i = 0; i < pattern.length; i++) {
      String expected = pattern[i];
      String actual = URLDecoder.decode(segments[i], StandardCharsets.UTF_8);
      if (expected.startsWith("{") && expected.endsWith("}")) {
        if (actual.isEmpty()) {
          return Optional.empty();
        }
        parameters.put(expected.substring(1, expected.length() - 1), actual);
      } else if (!expected.equals(actual)) {
        return Optional.empty();
      }
    }
    return Optional.of(parameters);
  }

  /** Query parameters, decoded, each name with all its values in order. */
  static Map<String, List<String>> query(String rawQuery) {
    Map<String, List<String>> query = new HashMap<>();
    if (rawQuery == null || rawQuery.isEmpty()) {
      return query;
    }
    for (String pair : rawQuery.split("&")) {
      if (pair.isEmpty()) {
        continue;
      }
      int equals = pair.indexOf('=');
      String name = URLDecoder.decode(equals < 0 ? pair : pair.substring(0, equals), StandardCharsets.UTF_8);
      String value = equals < 0 ? "" : URLDecoder.decode(pair.substring(equals + 1), StandardCharsets.UTF_8);
      query.computeIfAbsent(name, key -> new ArrayList<>()).add(value);
    }
    return query;
  }
}
