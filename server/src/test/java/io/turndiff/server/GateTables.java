package io.turndiff.server;

import io.turndiff.server.Gate.Verdict;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The rows of a gate's table: a request written as text, and the gate's answer as a short line, so
 * that each gate's test reads as requests → answers.
 *
 * <p>A request is its method, its target (path and query, as on the request line) and its headers,
 * {@code "Name: value"} separated by {@code " ,, "} (a header given twice is written twice). An
 * answer is {@code pass} (with {@code cors ORIGIN}, {@code session} and {@code limit N} for what
 * the gate added to the passage), the status an answering gate sends (with {@code cors ORIGIN}), or
 * the status and code of a refusal.
 */
final class GateTables {

  /** The port the tables' requests are addressed to. */
  static final int PORT = 7433;

  static final String HOST = "Host: 127.0.0.1:" + PORT;

  private GateTables() {}

  static RequestView request(String method, String target, String headers) {
    return request(method, target, headers, "");
  }

  static RequestView request(String method, String target, String headers, String body) {
    int query = target.indexOf('?');
    Map<String, List<String>> byName = new LinkedHashMap<>();
    if (headers != null && !headers.isBlank()) {
      for (String header : headers.split(" ,, ")) {
        String[] parts = header.split(":", 2);
        byName
            .computeIfAbsent(parts[0].strip(), name -> new ArrayList<>())
            .add(parts.length == 2 ? parts[1].strip() : "");
      }
    }
    byte[] bytes = body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8);
    return new RequestView(
        method,
        query < 0 ? target : target.substring(0, query),
        query < 0 ? null : target.substring(query + 1),
        byName,
        () -> new ByteArrayInputStream(bytes));
  }

  /** What {@code gate} makes of {@code request} coming to it with {@code passage}, as a line. */
  static String answer(Gate gate, RequestView request, Passage passage) {
    try {
      return line(gate.check(request, passage), passage);
    } catch (ApiError refused) {
      return refused.status() + " " + refused.code();
    } catch (IOException | RuntimeException failed) {
      return failed.getClass().getSimpleName();
    }
  }

  /** {@link #answer(Gate, RequestView, Passage)} for a request that passed no gate yet. */
  static String answer(Gate gate, RequestView request) {
    return answer(gate, request, Passage.START);
  }

  /** What the whole row makes of {@code request}, as a line. */
  static String answer(SecurityGates gates, RequestView request) {
    return line(gates.pass(request), Passage.START);
  }

  private static String line(Verdict verdict, Passage before) {
    return switch (verdict) {
      case Verdict.Pass(Passage next) -> "pass" + added(before, next);
      case Verdict.Answer(ApiResponse response, Passage next) ->
          response.status() + added(before, next);
      case Verdict.Stop(ApiError refused, Passage at) ->
          refused.status() + " " + refused.code() + added(before, at);
      case Verdict.Stop(Exception failed, Passage at) -> failed.getClass().getSimpleName();
    };
  }

  private static String added(Passage before, Passage after) {
    StringBuilder added = new StringBuilder();
    if (!after.corsOrigin().equals(before.corsOrigin())) {
      added.append(" cors ").append(after.corsOrigin().orElse("none"));
    }
    if (!after.panelSession().equals(before.panelSession())) {
      added.append(" session");
    }
    if (!after.bodyLimit().equals(before.bodyLimit())) {
      added.append(" limit ").append(after.bodyLimit().bytes());
    }
    return added.toString();
  }
}
