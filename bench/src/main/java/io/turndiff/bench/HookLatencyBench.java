package io.turndiff.bench;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.turndiff.api.Json;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;

/**
 * What a runtime pays per hook call: {@code bin/turndiff-hook codex} run as a runtime runs it (a
 * new process, the payload on its stdin) against a running per-user service ({@code turndiff
 * service start} on a tracked synthetic workspace), and the hook client beside it ({@code
 * bin/turndiff-hook-client codex}, when built) in alternation with it, call for call, with the same
 * payload posted straight to {@code /v1/hooks/codex} by an HTTP client already running as the
 * anchor (what the script adds: a shell, curl, the discovery file; what the client adds: its own
 * start and one connection). The per-tool-call hook is a Codex {@code PreToolUse} of {@code
 * apply_patch} updating one 1 KB file, each call a new file of one open turn; a turn's start
 * ({@code UserPromptSubmit}: the index refresh) and end ({@code Stop}: the finish scan) are
 * measured through the script too, over their own turns.
 */
public final class HookLatencyBench {

  /** What the bench runs; {@code client} is null when there is no hook client to measure. */
  public record Options(int calls, int warmup, int turns, int files, Path script, Path client) {
    public Options {
      if (calls < 1 || warmup < 0 || turns < 1 || files < 1) {
        throw new IllegalArgumentException(
            "--calls, --turns and --files must be positive, --warmup not negative");
      }
    }
  }

  private final Options options;
  private final PrintStream progress;

  public HookLatencyBench(Options options, PrintStream progress) {
    this.options = options;
    this.progress = progress;
  }

  /** The figures, in nanoseconds. */
  public record Result(
      Options options,
      Samples script,
      Samples client,
      Samples direct,
      Samples promptStart,
      Samples promptEnd,
      double loadBefore,
      double loadAfter) {

    public void print(PrintWriter out) {
      out.printf(
          "one hook call (Codex PreToolUse of apply_patch, one 1 KB file), %d calls each, %d files"
              + " tracked (machine: %d cores, load average %.1f before, %.1f after, Java %s)%n",
          options.calls(),
          options.files(),
          Runtime.getRuntime().availableProcessors(),
          loadBefore,
          loadAfter,
          System.getProperty("java.version"));
      out.printf("%-48s %9s %9s %9s%n", "", "p50 ms", "p90 ms", "p99 ms");
      row(out, "through bin/turndiff-hook (new process)", script);
      if (client != null) {
        row(out, "through bin/turndiff-hook-client (new process)", client);
      }
      row(out, "direct HTTP from a running client (anchor)", direct);
      row(out, "UserPromptSubmit through the script (" + options.turns() + ")", promptStart);
      row(out, "Stop through the script (" + options.turns() + ")", promptEnd);
      out.printf(
          "the script adds %.1f ms at p50; target for the per-tool-call hook: <= 30 ms p50 (%s)%n",
          (script.median() - direct.median()) / 1e6,
          script.median() <= 30_000_000L ? "met" : "NOT met");
      if (client == null) {
        out.println("no hook client beside the script (it needs a C compiler at build time)");
        return;
      }
      out.printf(
          "the client: p50 %.1f ms, %.2fx the anchor's, %.2fx the script's (p99 %.2fx the script's);"
              + " target: <= 15 ms p50 (%s)%n",
          client.median() / 1e6,
          (double) client.median() / direct.median(),
          (double) client.median() / script.median(),
          (double) client.quantile(0.99) / script.quantile(0.99),
          client.median() <= 15_000_000L ? "met" : "NOT met");
    }

    private static void row(PrintWriter out, String name, Samples samples) {
      out.println(samples.row(name, 1e6));
    }

    public ObjectNode json() {
      ObjectNode node = Json.object();
      node.put("calls", options.calls());
      node.put("files", options.files());
      node.put("load_before", loadBefore);
      node.put("load_after", loadAfter);
      script.putInto(node, "script_pre_tool_use_ms", 1e6);
      if (client != null) {
        client.putInto(node, "client_pre_tool_use_ms", 1e6);
      }
      direct.putInto(node, "direct_http_pre_tool_use_ms", 1e6);
      promptStart.putInto(node, "script_user_prompt_submit_ms", 1e6);
      promptEnd.putInto(node, "script_stop_ms", 1e6);
      return node;
    }
  }

  public Result run() throws Exception {
    Path base = Files.createTempDirectory("turndiff-hook-bench-");
    try {
      return run(base);
    } finally {
      TurnBench.deleteTree(base);
    }
  }

  private Result run(Path base) throws Exception {
    Path workspace = Files.createDirectories(base.resolve("workspace"));
    int perCall = options.calls() + options.warmup();
    int needed = (options.client() == null ? 2 : 3) * perCall + options.turns();
    int files = Math.max(options.files(), needed);
    Random random = new Random(11);
    for (int i = 0; i < files; i++) {
      Files.write(workspace.resolve("f" + i + ".txt"), SyntheticTree.text(random, 1024));
    }
    progress.println("wrote " + files + " files of 1 KB");
    double loadBefore = ServiceProcess.loadAverage();
    try (ServiceProcess service = ServiceProcess.start(base, base.resolve("store/turndiff.db"))) {
      Map<String, String> environment = service.environment();
      service.post(
          "/v1/workspaces/track",
          Json.write(Json.object().put("workspace", workspace.toString()), false),
          200);
      progress.println("service on port " + service.port() + ", workspace tracked");
      Path payloads = Files.createDirectories(base.resolve("payloads"));
      String session = "bench-session";
      String turn = "bench-turn-0";
      Path begin = payloads.resolve("begin.json");
      Files.writeString(begin, payload(workspace, session, turn, "UserPromptSubmit", null, null));
      hook(options.script(), environment, begin);
      Samples script = new Samples();
      Samples client = options.client() == null ? null : new Samples();
      Samples direct = new Samples();
      int file = 0;
      for (int i = 0; i < perCall; i++) {
        Path payload = payloads.resolve("call-" + i + ".json");
        Files.writeString(
            payload,
            payload(workspace, session, turn, "PreToolUse", "f" + file++ + ".txt", "s" + i));
        long nanos = hook(options.script(), environment, payload);
        if (i >= options.warmup()) {
          script.add(nanos);
        }
        if (client != null) {
          // alternated with the script's, call for call: both under the same load
          Path clientPayload = payloads.resolve("client-call-" + i + ".json");
          Files.writeString(
              clientPayload,
              payload(workspace, session, turn, "PreToolUse", "f" + file++ + ".txt", "c" + i));
          nanos = hook(options.client(), environment, clientPayload);
          if (i >= options.warmup()) {
            client.add(nanos);
          }
        }
      }
      for (int i = 0; i < perCall; i++) {
        String body =
            payload(workspace, session, turn, "PreToolUse", "f" + file++ + ".txt", "d" + i);
        long start = System.nanoTime();
        service.post("/v1/hooks/codex", body, 204);
        long nanos = System.nanoTime() - start;
        if (i >= options.warmup()) {
          direct.add(nanos);
        }
      }
      Path end = payloads.resolve("end.json");
      Files.writeString(end, payload(workspace, session, turn, "Stop", null, null));
      hook(options.script(), environment, end);
      int expected = (client == null ? 2 : 3) * perCall;
      int recorded = service.get("/v1/turns/codex:" + turn).path("files").size();
      if (recorded != expected) {
        throw new IllegalStateException(
            "the turn recorded " + recorded + " files, not " + expected + ": calls were lost");
      }
      progress.println("per-call hooks measured; " + recorded + " snapshots recorded");
      Samples promptStart = new Samples();
      Samples promptEnd = new Samples();
      for (int t = 1; t <= options.turns(); t++) {
        String id = "bench-turn-" + t;
        Path start = payloads.resolve("begin-" + t + ".json");
        Files.writeString(start, payload(workspace, session, id, "UserPromptSubmit", null, null));
        Path call = payloads.resolve("turn-call-" + t + ".json");
        Files.writeString(
            call, payload(workspace, session, id, "PreToolUse", "f" + file++ + ".txt", "t" + t));
        Path stop = payloads.resolve("end-" + t + ".json");
        Files.writeString(stop, payload(workspace, session, id, "Stop", null, null));
        promptStart.add(hook(options.script(), environment, start));
        hook(options.script(), environment, call);
        promptEnd.add(hook(options.script(), environment, stop));
      }
      Path hookLog = service.beside(".hook.log");
      if (Files.exists(hookLog) && Files.size(hookLog) > 0) {
        throw new IllegalStateException(
            "the hook script logged failures: " + Files.readString(hookLog));
      }
      return new Result(
          options,
          script,
          client,
          direct,
          promptStart,
          promptEnd,
          loadBefore,
          ServiceProcess.loadAverage());
    }
  }

  /** A Codex hook payload as Codex 0.171.0 writes it (integrations/fixtures/codex/). */
  static String payload(
      Path workspace, String session, String turn, String event, String file, String call) {
    ObjectNode payload =
        Json.object()
            .put("session_id", session)
            .put("turn_id", turn)
            .put("transcript_path", workspace.resolveSibling("rollout.jsonl").toString())
            .put("cwd", workspace.toString())
            .put("hook_event_name", event)
            .put("model", "gpt-5.5")
            .put("permission_mode", "bypassPermissions");
    if (file != null) {
      payload.put("tool_name", "apply_patch");
      payload
          .putObject("tool_input")
          .put(
              "command",
              "*** Begin Patch\n*** Update File: " + file + "\n@@\n-a\n+b\n*** End Patch");
      payload.put("tool_use_id", "call_" + call);
    } else if (event.equals("UserPromptSubmit")) {
      payload.put("prompt", "bench prompt");
    } else {
      payload.put("stop_hook_active", false).put("last_assistant_message", "done");
    }
    return Json.write(payload, false);
  }

  /**
   * Runs the hook command {@code hook} (the script or the client) as a runtime does, {@code
   * payload} on its stdin; its wall time.
   */
  private long hook(Path hook, Map<String, String> environment, Path payload) throws Exception {
    ProcessBuilder builder =
        new ProcessBuilder(hook.toString(), "codex")
            .redirectInput(payload.toFile())
            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .redirectError(ProcessBuilder.Redirect.DISCARD);
    builder.environment().clear();
    builder.environment().putAll(environment);
    long start = System.nanoTime();
    Process process = builder.start();
    if (!process.waitFor(60, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new IllegalStateException("the hook script did not end within 60 s");
    }
    long nanos = System.nanoTime() - start;
    if (process.exitValue() != 0) {
      throw new IllegalStateException("the hook script exited " + process.exitValue());
    }
    return nanos;
  }
}
