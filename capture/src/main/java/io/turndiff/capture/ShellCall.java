package io.turndiff.capture;

import io.turndiff.model.ExternalIds;
import io.turndiff.store.ToolCalls;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * A shell tool call as its Pre hook names it: the call's id, the runtime's tool name and what the
 * call is shown by, the first {@link ToolCalls#COMMAND_CHARS} characters of its command's first
 * line, every control character in them written as {@code \\uXXXX} (a command is the agent's text,
 * shown in a terminal and the panel).
 */
public record ShellCall(String toolCall, String toolName, Optional<String> command) {

  public ShellCall {
    ExternalIds.requireValid("tool call", toolCall);
    Objects.requireNonNull(toolName, "toolName");
    toolName = shown(toolName, 64);
    command = command.map(text -> shown(firstLine(text), ToolCalls.COMMAND_CHARS));
    command = command.filter(text -> !text.isBlank());
  }

  /** A call named by {@code toolCall} running {@code command} (empty: the payload had none). */
  public static ShellCall of(String toolCall, String toolName, String command) {
    return new ShellCall(toolCall, toolName, Optional.of(command));
  }

  private static String firstLine(String text) {
    int end = 0;
    while (end < text.length() && text.charAt(end) != '\n' && text.charAt(end) != '\r') {
      end++;
    }
    return text.substring(0, end);
  }

  /** {@code text}, at most {@code max} characters, its control characters escaped. */
  private static String shown(String text, int max) {
    StringBuilder shown = new StringBuilder();
    text.codePoints()
        .limit(max)
        .forEach(
            c -> {
              if (Character.isISOControl(c)) {
                shown.append("\\u").append(String.format(Locale.ROOT, "%04x", c));
              } else {
                shown.appendCodePoint(c);
              }
            });
    return shown.toString();
  }
}
