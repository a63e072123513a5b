package io.turndiff.model;

/**
 * A path given by a runtime or agent that can never name a file: the message names the input and
 * why.
 */
public final class BadPathException extends IllegalArgumentException {

  private final String input;
  private final String problem;

  public BadPathException(String input, String problem) {
    super("path '" + input + "' " + problem);
    this.input = input;
    this.problem = problem;
  }

  /** The input as it can be shown. */
  public String input() {
    return input;
  }

  /** What is wrong with it ({@code "is empty"}), for an edge that names the input its own way. */
  public String problem() {
    return problem;
  }
}
