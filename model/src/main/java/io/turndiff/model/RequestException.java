package io.turndiff.model;

/**
 * A capture, query or rewind request that cannot be carried out; nothing was written. The message
 * names the input.
 */
public final class RequestException extends RuntimeException {

  /** Stable codes for clients (the CLI's exit code, the HTTP service's error code). */
  public enum Problem {
    /** Input that can never be valid: a bad path, a malformed id. */
    BAD_INPUT,
    UNKNOWN_TURN,
    UNKNOWN_SESSION,
    /**
     * The turn or operation exists but is not in a state that allows the request (finishing a
     * finished turn).
     */
    WRONG_STATE,
    /** An id given for a new turn or session is taken. */
    ALREADY_EXISTS,
    /** The workspace is missing, not a directory, or not the directory the session began in. */
    WORKSPACE,
    /**
     * The workspace is outside the directories this process may work in ({@code serve
     * --allow-workspace}).
     */
    FORBIDDEN
  }

  private final Problem problem;

  public RequestException(Problem problem, String message) {
    super(message);
    this.problem = problem;
  }

  public Problem problem() {
    return problem;
  }
}
