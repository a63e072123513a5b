package io.turndiff.cli;

import io.turndiff.api.CliException;
import io.turndiff.api.ExitCode;
import io.turndiff.model.PathInput;

/**
 * {@code rewind --hunk PATH:N}: hunk {@code N} (from 1, as {@code diff} and {@code show} number the
 * turn's hunks of the file) of {@code PATH}. The number is after the last colon, so a path may hold
 * colons of its own.
 */
record HunkArgument(PathInput path, int number) {

  /**
   * @throws CliException (usage) naming a value without a path, or without a number from 1 after
   *     its last colon
   */
  static HunkArgument parse(String value) {
    int colon = value.lastIndexOf(':');
    String number = colon < 0 ? "" : value.substring(colon + 1);
    if (colon <= 0 || !number.matches("[1-9][0-9]{0,8}")) {
      throw new CliException(
          ExitCode.USAGE,
          "--hunk '"
              + Terminal.printable(value)
              + "' is not PATH:N (the file, a colon, the hunk's number from 1 as diff shows it)");
    }
    return new HunkArgument(PathInput.text(value.substring(0, colon)), Integer.parseInt(number));
  }
}
