package io.turndiff.server;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * Maps a method and a path such as {@code /v1/turns/{turn}/finish} to its endpoint, and knows which
 * query parameters each endpoint takes: any other is refused, so that a misspelt one is never
 * silently ignored.
 */
final class Router {

  @FunctionalInterface
  interface Endpoint {
    ApiResponse handle(ApiRequest request);
  }

  private record Route(String method, String[] segments, Set<String> query, Endpoint endpoint) {}

  record Match(Endpoint endpoint, Map<String, String> parameters, Set<String> query) {

    /** Refuses a query parameter the endpoint does not take. */
    void checkQuery(Map<String, List<String>> given) {
      for (String name : new TreeSet<>(given.keySet())) {
        if (!query.contains(name)) {
          throw new ApiError(
              400,
              "bad_request",
              "query parameter '"
                  + name
                  + "' is not known here"
                  + (query.isEmpty()
                      ? " (this endpoint takes none)"
                      : " (known: " + String.join(", ", new TreeSet<>(query)) + ")"));
        }
      }
    }
  }

  /** The slashes a path starts and ends with; compiled once, not per request. */
  private static final Pattern OUTER_SLASHES = Pattern.compile("^/+|/+$");

  private final List<Route> routes = new ArrayList<>();

  /** An endpoint that takes no query parameters. */
  Router add(String method, String pattern, Endpoint endpoint) {
    return add(method, pattern, Set.of(), endpoint);
  }

  Router add(String method, String pattern, Set<String> query, Endpoint endpoint) {
    routes.add(new Route(method, split(pattern), Set.copyOf(query), endpoint));
    return this;
  }

  private static String[] split(String path) {
    return OUTER_SLASHES.matcher(path).replaceAll("").split("/", -1);
  }

  /**
   * The endpoint for the request, or an error: {@code not_found} when no route has the path, {@code
   * method_not_allowed} when one has it for another method.
   */
  Match match(String method, String rawPath) {
    // decoded once here, not once for every route tried
    String[] segments = split(rawPath);
    for (int i = 0; i < segments.length; i++) {
      // Jetty refused a malformed %-escape before the request came here
      segments[i] = URLDecoder.decode(segments[i], StandardCharsets.UTF_8);
    }
    boolean pathKnown = false;
    for (Route route : routes) {
      Optional<Map<String, String>> parameters = parameters(route.segments(), segments);
      if (parameters.isEmpty()) {
        continue;
      }
      pathKnown = true;
      if (route.method().equals(method)) {
        return new Match(route.endpoint(), parameters.get(), route.query());
      }
    }
    if (pathKnown) {
      throw new ApiError(405, "method_not_allowed", method + " is not allowed on " + rawPath);
    }
    throw new ApiError(404, "not_found", "no endpoint at " + rawPath);
  }

  /** The path parameters, when the decoded {@code segments} fit {@code pattern}. */
  private static Optional<Map<String, String>> parameters(String[] pattern, String[] segments) {
    if (pattern.length != segments.length) {
      return Optional.empty();
    }
    Map<String, String> parameters = new HashMap<>();
    for (int i = 0; i < pattern.length; i++) {
      String expected = pattern[i];
      String actual = segments[i];
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
      // the JDK refused a malformed %-escape before (the request URI is parsed as a java.net.URI)
      String name =
          URLDecoder.decode(equals < 0 ? pair : pair.substring(0, equals), StandardCharsets.UTF_8);
      String value =
          equals < 0 ? "" : URLDecoder.decode(pair.substring(equals + 1), StandardCharsets.UTF_8);
      query.computeIfAbsent(name, key -> new ArrayList<>()).add(value);
    }
    return query;
  }
}
