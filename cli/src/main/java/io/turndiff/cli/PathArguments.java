package io.turndiff.cli;

import io.turndiff.api.CliException;
import io.turndiff.api.ExitCode;
import io.turndiff.model.BadPathException;
import io.turndiff.model.PathInput;
import java.util.ArrayList;
import java.util.List;

/**
 * The paths a command takes as arguments, decoded here once into their {@link PathInput}: {@code
 * PATH} arguments as text, {@code --path-base64} values as exact bytes (for names that are not
 * UTF-8).
 */
final class PathArguments {

  private PathArguments() {}

  /**
   * The texts, then the base64 paths, in order.
   *
   * @throws CliException (usage) naming a {@code --path-base64} value that is not base64
   */
  static List<PathInput> decode(List<String> texts, List<String> base64) {
    List<PathInput> inputs = new ArrayList<>(PathInput.texts(texts));
    for (String encoded : base64) {
      try {
        inputs.add(PathInput.base64(encoded));
      } catch (BadPathException e) {
        throw new CliException(ExitCode.USAGE, "--path-base64 '" + e.input() + "' " + e.problem());
      }
    }
    return inputs;
  }
}
