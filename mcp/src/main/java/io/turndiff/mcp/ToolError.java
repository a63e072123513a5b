package io.turndiff.mcp;

/**
 * A tool call turndiff refuses: its message, which names the argument or the state that is wrong,
 * is what the agent reads (a tool result marked as an error, never a stack trace).
 */
final class ToolError extends RuntimeException {

  private static final long serialVersionUID = 1L;

  ToolError(String message) {
    super(message);
  }
}
