package io.turndiff.api.wire;

import io.turndiff.store.StoredToolCall;
import java.util.List;

/**
 * A tool call a change is attributed to: its id, the runtime's tool name ({@code Bash}) and its
 * command's first line (bounded, control characters escaped), each null when not known.
 */
public record WireToolCall(String id, String tool, String command) {

  public static WireToolCall of(StoredToolCall call) {
    return new WireToolCall(
        call.externalId(), call.toolName().orElse(null), call.command().orElse(null));
  }

  /**
   * The call as a person names it: its tool, and a shell call's command after a colon ({@code Bash:
   * sed -i s/a/b/ a.txt}); {@code call ID} when the runtime gave no name.
   */
  public static String named(StoredToolCall call) {
    return call.toolName().orElse("call " + call.externalId())
        + call.command().map(command -> ": " + command).orElse("");
  }

  public static List<WireToolCall> of(List<StoredToolCall> calls) {
    return calls.stream().map(WireToolCall::of).toList();
  }
}
