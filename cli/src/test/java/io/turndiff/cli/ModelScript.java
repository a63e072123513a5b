package io.turndiff.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.turndiff.api.Json;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * What a scripted model answers, per prompt: for the prompt whose user message holds a marker
 * ({@code "do prompt one"}), its steps in order, each some text and at most one tool call, the last
 * one text only, which ends the runtime's turn. A request is answered with the step whose index is
 * the number of tool calls the conversation holds since that prompt's message, so the script does
 * not depend on how many requests a runtime makes, and a resumed session (which sends the whole
 * conversation again) finds its place by the newest marker.
 */
final class ModelScript {

  /**
   * One tool call: a function's name and its JSON input, or a free-form tool's text input; a
   * function may sit in a namespace (null: none), as the Responses API offers a group of tools.
   */
  record ToolCall(String namespace, String name, JsonNode input, String freeform) {

    static ToolCall function(String name, Object... keysAndValues) {
      return inNamespace(null, name, keysAndValues);
    }

    /**
     * A function of a namespace: Codex offers an MCP server's tools as the functions of the
     * namespace {@code mcp__SERVER} (the model calls {@code list_turns} of {@code mcp__turndiff}).
     */
    static ToolCall inNamespace(String namespace, String name, Object... keysAndValues) {
      ObjectNode input = Json.mapper().createObjectNode();
      for (int i = 0; i < keysAndValues.length; i += 2) {
        input.set((String) keysAndValues[i], Json.mapper().valueToTree(keysAndValues[i + 1]));
      }
      return new ToolCall(namespace, name, input, null);
    }

    /** A tool whose input is text, not JSON (Codex's {@code apply_patch} is one). */
    static ToolCall freeform(String name, String input) {
      return new ToolCall(null, name, null, input);
    }

    boolean isFreeform() {
      return freeform != null;
    }
  }

  /**
   * One answer of the model: text (may be empty when a tool call follows) and the call; or a call
   * the model makes from what the conversation holds ({@code fromConversation}, null for a fixed
   * step), as a model passes on an id a tool answered.
   */
  record Step(String text, Optional<ToolCall> call, Function<JsonNode, ToolCall> fromConversation) {

    static Step say(String text) {
      return new Step(text, Optional.empty(), null);
    }

    static Step call(ToolCall call) {
      return new Step("", Optional.of(call), null);
    }

    /** A call made from the request it answers (the conversation so far). */
    static Step callFrom(Function<JsonNode, ToolCall> fromConversation) {
      return new Step("", Optional.empty(), fromConversation);
    }

    /** This step as it answers {@code request}. */
    Step answering(JsonNode request) {
      return fromConversation == null ? this : call(fromConversation.apply(request));
    }
  }

  /** What the model says to a request the script does not know (a runtime's side request). */
  static final Step UNSCRIPTED = Step.say("Nothing scripted for this request.");

  /**
   * A place in a prompt where the model thinks until let go: a request for step {@code step} counts
   * {@code arrived} down, then waits for {@code go} (a test's way to interleave two sessions at a
   * point where neither runs a tool).
   */
  record Hold(int step, CountDownLatch arrived, CountDownLatch go) {}

  /** Long enough for the other session's whole prompt; only stops a test that lost its way. */
  private static final long HOLD_LIMIT_SECONDS = 300;

  private final Map<String, List<Step>> prompts = new LinkedHashMap<>();
  private final Map<String, Hold> holds = new ConcurrentHashMap<>();

  /** The steps of the prompt whose user message contains {@code marker}. */
  ModelScript prompt(String marker, Step... steps) {
    prompts.put(marker, List.of(steps));
    return this;
  }

  /** Holds the answer to the request for step {@code hold.step()} of the prompt {@code marker}. */
  ModelScript hold(String marker, Hold hold) {
    holds.put(marker, hold);
    return this;
  }

  /** Waits here when the script holds the answer for this step, until let go. */
  void awaitLetGo(String marker, int callsSince) throws InterruptedException {
    Hold hold = holds.get(marker);
    if (hold != null && hold.step() == callsSince) {
      hold.arrived().countDown();
      if (!hold.go().await(HOLD_LIMIT_SECONDS, TimeUnit.SECONDS)) {
        throw new IllegalStateException("prompt " + marker + " held too long");
      }
    }
  }

  /** The markers, for a server to find the newest prompt's message in a conversation. */
  List<String> markers() {
    return new ArrayList<>(prompts.keySet());
  }

  /**
   * The step for a conversation whose newest prompt holds {@code marker} and which made {@code
   * callsSince} tool calls since; past the script's end, a closing text.
   */
  Step step(String marker, int callsSince, JsonNode request) {
    List<Step> steps = prompts.get(marker);
    return callsSince < steps.size()
        ? steps.get(callsSince).answering(request)
        : Step.say("The script has ended.");
  }
}
