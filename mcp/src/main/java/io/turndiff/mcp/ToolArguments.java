package io.turndiff.mcp;

import io.turndiff.model.PathInput;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The arguments of one tool call, read strictly: a name the tool does not take is refused, naming
 * it (a misspelt {@code "dryrun"} or a {@code "force"} must never be read as absent), and so is a
 * value of the wrong type. A model writes these arguments, so every refusal says what it expected.
 */
final class ToolArguments {

  private final String tool;
  private final Map<String, Object> given;

  private ToolArguments(String tool, Map<String, Object> given) {
    this.tool = tool;
    this.given = given;
  }

  /** {@code given} (null for none), refused when it names anything outside {@code accepted}. */
  static ToolArguments of(String tool, Map<String, Object> given, Set<String> accepted) {
    Map<String, Object> arguments = given == null ? Map.of() : given;
    Set<String> unknown = new TreeSet<>(arguments.keySet());
    unknown.removeAll(accepted);
    if (!unknown.isEmpty()) {
      throw new ToolError(
          tool
              + " does not take "
              + String.join(", ", unknown)
              + " (it takes "
              + String.join(", ", new TreeSet<>(accepted))
              + ")");
    }
    return new ToolArguments(tool, arguments);
  }

  String requiredText(String name) {
    return text(name).orElseThrow(() -> new ToolError(tool + " needs '" + name + "' (a string)"));
  }

  Optional<String> text(String name) {
    return present(name)
        .map(
            value -> {
              if (value instanceof String text && !text.isBlank()) {
                return text;
              }
              throw new ToolError(tool + ": '" + name + "' must be a non-empty string");
            });
  }

  boolean flag(String name) {
    return present(name)
        .map(
            value -> {
              if (value instanceof Boolean flag) {
                return flag;
              }
              throw new ToolError(tool + ": '" + name + "' must be true or false");
            })
        .orElse(false);
  }

  /** A whole number from {@code min} to {@code max}, or {@code otherwise} when absent. */
  long number(String name, long min, long max, long otherwise) {
    return present(name)
        .map(
            value -> {
              if (value instanceof Number number
                  && number.doubleValue() == Math.rint(number.doubleValue())
                  && number.longValue() >= min
                  && number.longValue() <= max) {
                return number.longValue();
              }
              throw new ToolError(
                  tool + ": '" + name + "' must be a whole number from " + min + " to " + max);
            })
        .orElse(otherwise);
  }

  /** A list of workspace paths as text; empty when absent, refused when given empty. */
  List<PathInput> paths(String name) {
    Optional<Object> value = present(name);
    if (value.isEmpty()) {
      return List.of();
    }
    if (!(value.get() instanceof List<?> items) || items.isEmpty()) {
      throw new ToolError(
          tool
              + ": '"
              + name
              + "', when given, must be a list of at least one path;"
              + " leave it out for every path of the turn");
    }
    List<PathInput> paths = new ArrayList<>();
    for (Object item : items) {
      if (!(item instanceof String text) || text.isEmpty()) {
        throw new ToolError(tool + ": each of '" + name + "' must be a non-empty string");
      }
      paths.add(PathInput.text(text));
    }
    return List.copyOf(paths);
  }

  private Optional<Object> present(String name) {
    if (given.containsKey(name) && given.get(name) == null) {
      throw new ToolError(tool + ": '" + name + "' is null; leave it out instead");
    }
    return Optional.ofNullable(given.get(name));
  }
}
