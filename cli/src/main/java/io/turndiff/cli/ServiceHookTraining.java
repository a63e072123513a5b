package io.turndiff.cli;

import io.turndiff.api.Json;
import io.turndiff.service.ServiceProbe;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The workload the launcher trains the service's own ahead-of-time cache on ({@code
 * -XX:AOTCacheOutput}, with the options {@code serve} runs with: the full JIT, the default
 * collector): the service started as {@code service start} spawns it ({@link ServiceTraining}), a
 * workspace of {@value #FILES} files tracked through it, then {@value #TURNS} turns of hooks posted
 * as a runtime's hook client posts them, Codex's and Claude Code's in turn — a prompt's begin, a
 * patch's or an edit's snapshot before the tool, a shell call bracketed by its Pre and Post, files
 * written by both and by nothing announced, the Stop — each turn read back as the panel reads it.
 *
 * <p>Why: JDK 25's cache keeps the classes loaded and linked and the methods' profiles as the
 * training left them, not compiled code. The one-shot commands' cache is trained on C1 alone, which
 * profiles nothing, and runs no hooks; a service started from it was still compiling its hook path
 * twenty turns in (its begin and Stop at 100,000 files about 20 / 25–30 ms p50 after five turns,
 * against 10–13 / 14–22 ms after a hundred, docs/performance.md). From this cache its compilers
 * start from the training's profiles (docs/performance.md, "The service trained on its hooks").
 *
 * <p>Everything it writes (the store named by its one argument, the workspace, the service's run
 * directory) goes to the temporary folder the launcher gives it.
 */
public final class ServiceHookTraining {

  /** Files of the tracked workspace: enough folders for the watcher's walks to take their path. */
  static final int FILES = 500;

  /** Turns posted: what a service has seen when its hooks run at their warm figures. */
  static final int TURNS = 100;

  private final HttpClient http = HttpClient.newHttpClient();
  private final URI service;
  private final String token;
  private final DemoWorkspace workspace;

  private ServiceHookTraining(URI service, String token, DemoWorkspace workspace) {
    this.service = service;
    this.token = token;
    this.workspace = workspace;
  }

  public static void main(String[] args) {
    if (args.length != 1) {
      throw new IllegalArgumentException("usage: ServiceHookTraining STORE");
    }
    ServiceTraining.exitWhenDone(
        () ->
            train(
                ServiceTraining.start(
                    Path.of(args[0]), Path.of(System.getProperty("java.io.tmpdir")))));
  }

  /** Tracks a workspace through the service the training started and posts the turns. */
  static void train(ServiceTraining.Started service) throws IOException, InterruptedException {
    ServiceProbe.Running running = service.running();
    DemoWorkspace workspace = DemoWorkspace.create("SERVICE_TRAINING=nothing secret");
    for (int i = 0; i < FILES; i++) {
      workspace.write(source(i), "class File" + i + " {}\n");
    }
    ServiceHookTraining training =
        new ServiceHookTraining(
            URI.create("http://127.0.0.1:" + running.discovery().port()),
            running.token(),
            workspace);
    training.post("/v1/workspaces/track", Map.of("workspace", workspace.root().toString()), 200);
    for (int turn = 0; turn < TURNS; turn++) {
      training.turn(turn, turn % 2 == 0 ? Runtime.CODEX : Runtime.CLAUDE_CODE);
    }
  }

  /** A runtime's names for what the turn sends. */
  private enum Runtime {
    CODEX("codex", "turn_id", "apply_patch"),
    CLAUDE_CODE("claude-code", "prompt_id", "Edit");

    final String path;
    final String turnField;
    final String editTool;

    Runtime(String path, String turnField, String editTool) {
      this.path = path;
      this.turnField = turnField;
      this.editTool = editTool;
    }
  }

  /**
   * One turn: its begin, an edit snapshotted before it is made, a shell call that writes a file
   * between its Pre and Post, a file written with no hook, the Stop; then the turn read back.
   */
  private void turn(int turn, Runtime runtime) throws IOException, InterruptedException {
    String id = "training-" + turn;
    String edited = source(turn * 7);
    String shelled = source(turn * 7 + 1);
    hook(
        runtime,
        event(runtime, id, "UserPromptSubmit", Map.of("prompt", "training prompt " + turn)));
    hook(runtime, edit(runtime, id, "PreToolUse", edited));
    workspace.write(edited, "class Edited" + turn + " {}\n");
    hook(runtime, edit(runtime, id, "PostToolUse", edited));
    hook(runtime, shell(runtime, id, "PreToolUse", shelled));
    workspace.write(shelled, "class Shelled" + turn + " {}\n");
    hook(runtime, shell(runtime, id, "PostToolUse", shelled));
    workspace.write(source(turn * 7 + 2), "class Unannounced" + turn + " {}\n");
    hook(runtime, event(runtime, id, "Stop", Map.of("stop_hook_active", false)));
    get("/v1/turns/" + runtime.path + ":" + id);
  }

  /** The workspace's {@code i}th source file, in one of forty folders. */
  private static String source(int i) {
    int file = Math.floorMod(i, FILES);
    return "src/module" + file % 40 + "/File" + file + ".java";
  }

  /** A hook's payload: the fields every event has, then {@code fields}. */
  private Map<String, Object> event(
      Runtime runtime, String turn, String event, Map<String, Object> fields) {
    Map<String, Object> payload = new LinkedHashMap<>();
    payload.put("session_id", "training");
    payload.put(runtime.turnField, turn);
    payload.put("transcript_path", workspace.root().resolveSibling("transcript.jsonl").toString());
    payload.put("cwd", workspace.root().toString());
    payload.put("hook_event_name", event);
    payload.putAll(fields);
    return payload;
  }

  /** An edit's Pre or Post: Codex's patch, Claude Code's file path. */
  private Map<String, Object> edit(Runtime runtime, String turn, String event, String file) {
    Map<String, Object> input =
        runtime == Runtime.CODEX
            ? Map.of(
                "command",
                "*** Begin Patch\n*** Update File: " + file + "\n@@\n-a\n+b\n*** End Patch")
            : Map.of("file_path", workspace.root().resolve(file).toString());
    return event(
        runtime,
        turn,
        event,
        Map.of("tool_name", runtime.editTool, "tool_use_id", "edit-" + turn, "tool_input", input));
  }

  /** A shell call's Pre or Post, a command that edits {@code file}. */
  private Map<String, Object> shell(Runtime runtime, String turn, String event, String file) {
    return event(
        runtime,
        turn,
        event,
        Map.of(
            "tool_name",
            "Bash",
            "tool_use_id",
            "shell-" + turn,
            "tool_input",
            Map.of("command", "sed -i s/a/b/ " + file)));
  }

  /** Posts a hook as the hook client does: the service answers 204, or 200 with a note. */
  private void hook(Runtime runtime, Map<String, Object> payload)
      throws IOException, InterruptedException {
    HttpResponse<String> answer = send(post("/v1/hooks/" + runtime.path, payload));
    if (answer.statusCode() != 200 && answer.statusCode() != 204) {
      throw new IllegalStateException(
          "training: the " + runtime.path + " hook answered " + answer.statusCode());
    }
  }

  private void post(String path, Map<String, Object> body, int expected)
      throws IOException, InterruptedException {
    HttpResponse<String> answer = send(post(path, body));
    if (answer.statusCode() != expected) {
      throw new IllegalStateException(
          "training: " + path + " answered " + answer.statusCode() + ": " + answer.body());
    }
  }

  private HttpRequest post(String path, Map<String, Object> body) {
    return request(path)
        .header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(Json.write(body, false)))
        .build();
  }

  private void get(String path) throws IOException, InterruptedException {
    HttpResponse<String> answer = send(request(path).GET().build());
    if (answer.statusCode() != 200) {
      throw new IllegalStateException("training: " + path + " answered " + answer.statusCode());
    }
  }

  private HttpRequest.Builder request(String path) {
    return HttpRequest.newBuilder(service.resolve(path)).header("Authorization", "Bearer " + token);
  }

  private HttpResponse<String> send(HttpRequest request) throws IOException, InterruptedException {
    return http.send(request, HttpResponse.BodyHandlers.ofString());
  }
}
