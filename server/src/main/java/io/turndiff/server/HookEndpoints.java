package io.turndiff.server;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.turndiff.api.Json;
import io.turndiff.api.RequestBodies;
import io.turndiff.api.TurnEvents;
import io.turndiff.api.Turndiff;
import io.turndiff.hooks.GoneRuntimes;
import io.turndiff.hooks.HookCounters;
import io.turndiff.hooks.HookOutcome;
import io.turndiff.hooks.HookQuery;
import io.turndiff.hooks.HookSightings;
import io.turndiff.hooks.RuntimeHooks;
import io.turndiff.model.RuntimeProcess;
import io.turndiff.ownfiles.Proc;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * {@code POST /v1/hooks/RUNTIME}: a runtime's own hook payload, unchanged (docs/runtime-hooks.md,
 * "The hook endpoints"), handed to {@link RuntimeHooks}. A body that is not a hook payload is
 * refused ({@code 400}, naming the problem) before anything happens; every payload that is one is
 * answered {@code 204} with no body, whatever it did — the outcome goes in headers.
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

  static final String OUTCOME_HEADER = "Turndiff-Hook-Outcome";
  static final String TURN_HEADER = "Turndiff-Hook-Turn";
  static final String ERROR_HEADER = "Turndiff-Hook-Error";

  private final RuntimeHooks hooks;

  HookEndpoints(Turndiff turndiff, Function<String, Path> admitted, TurnEvents events) {
    this.hooks = new RuntimeHooks(turndiff, admitted, events);
  }

  /**
   * The runtime's process, as the hook script names it (docs/runtime-hooks.md, "A turn whose
   * runtime is gone"): its pid and its start time in clock ticks since boot, both or neither.
   */
  static final String PID = "pid";

  static final String PID_START = "pid_start";

  /**
   * The runtime's version, as the hook script found it in the runtime's own install (no runtime
   * puts it in a hook payload): shown by {@code hooks status}.
   */
  static final String RUNTIME_VERSION = "runtime_version";

  /** The most characters a version may have: npm's longest real ones have a few dozen. */
  static final int MAX_VERSION_CHARS = 64;

  static Set<String> query() {
    Set<String> names = new HashSet<>(QUERY.keySet());
    names.add(PID);
    names.add(PID_START);
    names.add(RUNTIME_VERSION);
    return Set.copyOf(names);
  }

  ApiResponse handle(ApiRequest request) {
    String runtime = request.path("runtime");
    if (!hooks.runtimes().contains(runtime)) {
      throw new ApiError(
          404,
          "not_found",
          "no hook endpoint for the runtime '"
              + runtime
              + "' (known: "
              + String.join(", ", hooks.runtimes())
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
    HookQuery query =
        new HookQuery(
            request.query("root").isPresent(),
            request.query("track").isPresent(),
            runtimeProcess(request),
            runtimeVersion(request));
    return response(runtime, hooks.receive(runtime, request.rawBody(), query));
  }

  /**
   * The process the hook script named, seen in this boot (the call came from it just now); a
   * malformed or half-given one is refused, naming it, before anything happens.
   */
  private static Optional<RuntimeProcess> runtimeProcess(ApiRequest request) {
    boolean pid = request.query(PID).isPresent();
    if (pid != request.query(PID_START).isPresent()) {
      throw new ApiError(
          400,
          "bad_request",
          "query parameters '" + PID + "' and '" + PID_START + "' go together; give both or none");
    }
    if (!pid) {
      return Optional.empty();
    }
    return Optional.of(
        new RuntimeProcess(
            request.queryLong(PID, 0, 1, Integer.MAX_VALUE),
            request.queryLong(PID_START, 0, 0, Long.MAX_VALUE),
            Proc.bootId()));
  }

  /**
   * The runtime's version the hook script reported: a version as npm spells one (a digit or a
   * letter, then digits, letters, {@code .+-_}), at most {@value #MAX_VERSION_CHARS} characters;
   * anything else is refused, naming it, before anything happens, since it is shown on the user's
   * terminal.
   */
  private static Optional<String> runtimeVersion(ApiRequest request) {
    Optional<String> version = request.query(RUNTIME_VERSION);
    if (version.isPresent()
        && (version.get().isEmpty()
            || version.get().length() > MAX_VERSION_CHARS
            || !version.get().matches("[0-9A-Za-z][0-9A-Za-z.+_-]*"))) {
      throw new ApiError(
          400,
          "bad_request",
          "query parameter '"
              + RUNTIME_VERSION
              + "' is a version (at most "
              + MAX_VERSION_CHARS
              + " characters of 0-9, A-Z, a-z, '.', '+', '-', '_', the first a digit or a letter),"
              + " not "
              + Json.write(version.get(), false));
    }
    return version;
  }

  /**
   * {@code 204} with no body, the outcome in headers, for tests and logs; a prompt's begin with a
   * note for the model answers {@code 200} with the note as the runtime takes a prompt hook's
   * output into the model's context (docs/runtime-hooks.md, "What the agent is told"), which the
   * hook script prints: plain text for Claude Code ({@code UserPromptSubmit}: a system message) and
   * Codex (a developer message), Gemini's JSON {@code hookSpecificOutput.additionalContext} for
   * {@code BeforeAgent} (its plain text would only be shown to the user).
   */
  private static ApiResponse response(String runtime, HookOutcome outcome) {
    ApiResponse response =
        outcome
            .note()
            .map(note -> noteFor(runtime, note))
            .orElseGet(() -> new ApiResponse(204, "text/plain; charset=utf-8", new byte[0]))
            .withHeader(OUTCOME_HEADER, String.join(",", outcome.outcomes()));
    if (outcome.turn().isPresent()) {
      response = response.withHeader(TURN_HEADER, outcome.turn().get());
    }
    if (outcome.failure().isPresent()) {
      response = response.withHeader(ERROR_HEADER, outcome.failure().get().code());
    }
    return response;
  }

  private static ApiResponse noteFor(String runtime, String note) {
    if (runtime.equals("gemini")) {
      ObjectNode output = Json.mapper().createObjectNode();
      output
          .putObject("hookSpecificOutput")
          .put("hookEventName", "BeforeAgent")
          .put("additionalContext", note);
      return new ApiResponse(
          200, "application/json", Json.write(output, false).getBytes(StandardCharsets.UTF_8));
    }
    return new ApiResponse(
        200, "text/plain; charset=utf-8", (note + "\n").getBytes(StandardCharsets.UTF_8));
  }

  /**
   * A hook call the hook script kept in its spool since {@code spooledAt}, when no service ran
   * (docs/runtime-hooks.md, "When the service is not running"), acted on late.
   */
  HookOutcome receiveLate(String runtime, byte[] body, HookQuery query, Instant spooledAt) {
    if (!hooks.runtimes().contains(runtime)) {
      throw new IllegalArgumentException("no hook endpoint for the runtime '" + runtime + "'");
    }
    return hooks.receiveLate(runtime, body, query, spooledAt);
  }

  /** What the hook endpoints did since the service started. */
  HookCounters counters() {
    return hooks.counters();
  }

  HookSightings sightings() {
    return hooks.sightings();
  }

  /** The open turns whose runtime is gone, and their finish. */
  GoneRuntimes goneRuntimes() {
    return hooks.goneRuntimes();
  }
}
