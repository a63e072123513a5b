package io.turndiff.server;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * A request as the {@linkplain SecurityGates gates} see it, whatever server carries it: the method,
 * the path and the query as the request line has them (undecoded), the headers by name in any case,
 * and the body, opened only when something asks for it. The JDK server's exchange is one source of
 * it ({@link HttpService}); the gates' tests build one from a table. Nothing here answers or
 * refuses a request except a header the gates need once that came twice.
 */
final class RequestView {

  /** Where the body comes from; opened only by {@link #body(BodyLimit)}. */
  @FunctionalInterface
  interface Body {
    InputStream open() throws IOException;
  }

  private final String method;
  private final String rawPath;
  private final String rawQuery;
  private final Map<String, List<String>> headers;
  private final Body body;

  /**
   * @param rawQuery the query without its {@code ?}, or null when there is none
   * @param headers each name with its values in the order they came (names in any case)
   */
  RequestView(
      String method,
      String rawPath,
      String rawQuery,
      Map<String, List<String>> headers,
      Body body) {
    this.method = method;
    this.rawPath = rawPath;
    this.rawQuery = rawQuery;
    Map<String, List<String>> byName = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    headers.forEach(
        (name, values) -> byName.computeIfAbsent(name, any -> new ArrayList<>()).addAll(values));
    this.headers = byName;
    this.body = body;
  }

  String method() {
    return method;
  }

  String rawPath() {
    return rawPath;
  }

  /** The query's parameters, decoded, each name with all its values in order. */
  Map<String, List<String>> query() {
    return Router.query(rawQuery);
  }

  /**
   * The header's value; a header a request may carry once, given twice, is refused (which one would
   * count?).
   */
  Optional<String> header(String name) {
    List<String> values = headers.get(name);
    if (values == null || values.isEmpty()) {
      return Optional.empty();
    }
    if (values.size() > 1) {
      throw new ApiError(
          400,
          "bad_request",
          "the " + name + " header is given " + values.size() + " times; give it once");
    }
    return Optional.of(values.getFirst());
  }

  /**
   * The first value of a header that the server underneath has already read as one (such as {@code
   * Content-Length}, which frames the body).
   */
  Optional<String> firstHeader(String name) {
    List<String> values = headers.get(name);
    return values == null || values.isEmpty() ? Optional.empty() : Optional.of(values.getFirst());
  }

  /**
   * The body, read to its end (a declared one at its length, a chunked one up to {@code limit}).
   */
  byte[] body(BodyLimit limit) throws IOException {
    return limit.read(body.open(), firstHeader("Content-Length"));
  }
}
