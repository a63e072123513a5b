package io.turndiff.model;

/** A path given by a runtime or agent that can never name a file: the message names the input and why. */
public final class BadPathException extends IllegalArgumentException {

  private final String input;

  public BadPathException(String input, String problem) {
    super("path '" + input + "' " + problem);
    this.input = input;
  }

  public String input() {
    return input;
  }
}
