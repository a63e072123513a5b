package io.turndiff.model;

import java.util.HexFormat;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Pattern;

/**
 * The ids runtimes use for sessions, turns, tool calls and rewind operations: given, or generated.
 */
public final class ExternalIds {

  private static final Pattern VALID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._:@/+=-]{0,127}");

  private ExternalIds() {}

  /** A fresh id such as {@code turn-3f2a9c0d41b7e611}. */
  public static String generate(String kind) {
    byte[] random = new byte[8];
    ThreadLocalRandom.current().nextBytes(random);
    return kind + "-" + HexFormat.of().formatHex(random);
  }

  /** Whether {@code id} is a valid id (see {@link #requireValid}). */
  public static boolean isValid(String id) {
    return id != null && VALID.matcher(id).matches();
  }

  /**
   * Checks an id a client gave: 1–128 characters, letters, digits and {@code ._:@/+=-}, starting
   * with a letter or digit.
   */
  public static String requireValid(String kind, String id) {
    if (!isValid(id)) {
      throw new RequestException(
          RequestException.Problem.BAD_INPUT,
          kind
              + " id '"
              + id
              + "' is not valid: "
              + "use 1-128 letters, digits and ._:@/+=- starting with a letter or digit");
    }
    return id;
  }
}
