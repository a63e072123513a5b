package io.turndiff.server;

import io.turndiff.api.RequestBodies;
import io.turndiff.api.Turndiff;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * {@code POST /v1/hooks/RUNTIME}: a runtime's own hook payload, unchanged (docs/runtime-hooks.md,
 * "The hook endpoints"). A body that is not a hook payload is refused ({@code 400}, naming the
 * problem) before anything happens; every payload that is one is answered {@code 204} with no body,
 * whatever it did — the outcome goes in headers ({@link HookOutcome}).
 */
final class HookEndpoints {

  static final String PATH = "/v1/hooks/{runtime}";

  /**
   * Query parameters the hook clients pass on from {@code hooks install}, with the value each may
   * take.
   */
  static final Map<String, String> QUERY = Map.of("root", "git", "track", "auto");

  /** The most a hook body may hold: a Claude Code {@code Write} carries the whole file. */
  static final int MAX_BODY_BYTES = RequestBodies.PAYLOAD_LIMIT_BYTES;

  private final Map<String, HookMapper> mappers = new TreeMap<>();
  private final HookTurns turns;
  private final HookCounters counters;

  HookEndpoints(Turndiff turndiff, Function<String, Path> admitted, TurnEvents events) {
    for (HookMapper mapper :
        List.of(new ClaudeCodeHooks(), new CodexHooks(), new GeminiHooks(), new OpenCodeHooks())) {
      mappers.put(mapper.runtime(), mapper);
    }
    this.turns = new HookTurns(turndiff, admitted, events);
    this.counters = new HookCounters(List.copyOf(mappers.keySet()));
  }

  static Set<String> query() {
    return QUERY.keySet();
  }

  ApiResponse handle(ApiRequest request) {
    String runtime = request.path("runtime");
    HookMapper mapper = mappers.get(runtime);
    if (mapper == null) {
      throw new ApiError(
          404,
          "not_found",
          "no hook endpoint for the runtime '"
              + runtime
              + "' (known: "
              + String.join(", ", mappers.keySet())
              + ")");
    }
    request.requireBearer("/v1/hooks/" + runtime);
    QUERY.forEach(
        (name, value) ->
            request
                .query(name)
                .filter(given -> !given.equals(value))
                .ifPresent(
                    given -> {
                      throw new ApiError(
                          400,
                          "bad_request",
                          "query parameter '"
                              + name
                              + "' takes only '"
                              + value
                              + "', not '"
                              + given
                              + "'");
                    }));
    byte[] body = request.rawBody();
    HookCall call;
    try {
      call = mapper.map(HookFields.read(body, mapper.fields()));
    } catch (RuntimeException refused) {
      counters.refused(runtime);
      throw refused;
    }
    HookQuery query =
        new HookQuery(request.query("root").isPresent(), request.query("track").isPresent());
    HookOutcome outcome = turns.handle(call, query, body);
    counters.accepted(call, outcome);
    return outcome.response();
  }

  /** What the hook endpoints did since the service started. */
  HookCounters counters() {
    return counters;
  }
}
