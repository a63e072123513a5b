package io.turndiff.hooks;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.turndiff.api.InvalidRequest;
import io.turndiff.api.RequestBodies;
import io.turndiff.model.BadPathException;
import io.turndiff.model.PathInput;
import io.turndiff.model.PathParser;
import io.turndiff.model.RequestException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * The fields of one hook payload, read leniently (a field the mapping does not name is never looked
 * at, nor even kept: {@link RequestBodies#readFields}) but checked where the mapping relies on
 * them: a required id that is missing or not a string is {@code bad_request}, a directory that is
 * not absolute or a path with a NUL is {@code bad_input}, each naming the field. Every check runs
 * before the service acts on the payload.
 */
final class HookFields {

  private final ObjectNode body;
  private final Set<String> fields;

  private HookFields(ObjectNode body, Set<String> fields) {
    this.body = body;
    this.fields = fields;
  }

  /** {@code fields} (dotted paths) of the payload {@code body}; every other value is skipped. */
  static HookFields read(byte[] body, Set<String> fields) {
    return new HookFields(RequestBodies.readFields(body, fields), fields);
  }

  /** The value at {@code path} (field names joined by dots), or a missing node. */
  JsonNode at(String path) {
    if (!fields.contains(path)) {
      // a field the mapping does not name was not kept: reading it would see it missing
      throw new IllegalStateException("the mapping reads '" + path + "' but does not name it");
    }
    JsonNode node = body;
    for (String name : path.split("\\.")) {
      node = node.path(name);
    }
    return node;
  }

  /** A string field the payload must have. */
  String required(String path) {
    JsonNode value = at(path);
    if (value.isMissingNode() || value.isNull()) {
      throw new InvalidRequest("the hook payload has no field '" + path + "'");
    }
    if (!value.isTextual()) {
      throw new InvalidRequest(
          "field '"
              + path
              + "' of the hook payload must be a string, not "
              + value.getNodeType().name().toLowerCase(Locale.ROOT));
    }
    if (value.asText().isEmpty()) {
      throw new InvalidRequest("field '" + path + "' of the hook payload is empty");
    }
    return value.asText();
  }

  /** A string field the payload may have; a value of another type counts as absent. */
  Optional<String> optional(String path) {
    JsonNode value = at(path);
    return value.isTextual() && !value.asText().isEmpty()
        ? Optional.of(value.asText())
        : Optional.empty();
  }

  /** The directory field {@code path}, which must be absolute when given. */
  Optional<String> directory(String path) {
    Optional<String> directory = optional(path);
    directory.ifPresent(
        value -> {
          requireNoNul(path, value);
          if (!value.startsWith("/")) {
            throw new RequestException(
                RequestException.Problem.BAD_INPUT,
                "field '" + path + "' must be an absolute directory, not '" + value + "'");
          }
        });
    return directory;
  }

  /**
   * {@code given} paths as a snapshot takes them: absolute ones as they are, relative ones joined
   * to {@code base} lexically (the boundary resolves {@code ..} and links when the snapshot runs),
   * each read once by the one path parser so that a path it refuses is refused here, naming {@code
   * field}, before anything happens.
   */
  static List<String> paths(String field, String base, Collection<String> given) {
    requireNoNul("cwd", base);
    PathParser parser = new PathParser(Path.of(base), Path.of(base));
    List<String> joined = new ArrayList<>(given.size());
    for (String path : given) {
      String absolute = path.startsWith("/") ? path : base + "/" + path;
      try {
        parser.parse(PathInput.text(absolute));
      } catch (BadPathException e) {
        throw new RequestException(
            RequestException.Problem.BAD_INPUT,
            "field '" + field + "': path " + e.input() + " " + e.problem());
      }
      joined.add(absolute);
    }
    return joined;
  }

  /** {@code directory} joined with {@code sub} when given (relative to it, or absolute). */
  static String within(String directory, Optional<String> sub) {
    return sub.map(dir -> dir.startsWith("/") ? dir : directory + "/" + dir).orElse(directory);
  }

  private static void requireNoNul(String field, String value) {
    if (value.indexOf('\0') >= 0) {
      throw new RequestException(
          RequestException.Problem.BAD_INPUT,
          "field '" + field + "' contains a NUL byte: '" + value.replace("\0", "\\0") + "'");
    }
  }
}
