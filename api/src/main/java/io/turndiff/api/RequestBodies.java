package io.turndiff.api;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.exc.InputCoercionException;
import com.fasterxml.jackson.core.util.JsonRecyclerPools;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.cfg.MutableCoercionConfig;
import com.fasterxml.jackson.databind.exc.InvalidNullException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.type.LogicalType;
import io.turndiff.model.BadPathException;
import java.io.IOException;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Binds request bodies to their records strictly, so that a request is either exactly understood or
 * refused with a message naming the field: an unknown field (a typo such as {@code dryrun}), a
 * value of the wrong type (no string is read as a number or a boolean, no number as a string, no
 * fraction as an integer), a null where a flag or a number belongs, a number out of range, a field
 * given twice, and anything after the JSON object are all errors.
 */
public final class RequestBodies {

  private static final ObjectMapper STRICT =
      JsonMapper.builder(Json.factory())
          .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
          .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
          .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
          .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
          .enable(DeserializationFeature.FAIL_ON_READING_DUP_TREE_KEY)
          .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
          .disable(DeserializationFeature.ACCEPT_SINGLE_VALUE_AS_ARRAY)
          .disable(MapperFeature.ALLOW_COERCION_OF_SCALARS)
          .withCoercionConfig(
              LogicalType.Textual,
              refusing(
                  CoercionInputShape.Integer, CoercionInputShape.Float, CoercionInputShape.Boolean))
          .withCoercionConfig(
              LogicalType.Integer,
              refusing(
                  CoercionInputShape.String,
                  CoercionInputShape.EmptyString,
                  CoercionInputShape.Float,
                  CoercionInputShape.Boolean))
          .withCoercionConfig(
              LogicalType.Boolean,
              refusing(
                  CoercionInputShape.String,
                  CoercionInputShape.EmptyString,
                  CoercionInputShape.Integer,
                  CoercionInputShape.Float))
          .withCoercionConfig(
              LogicalType.Collection,
              refusing(CoercionInputShape.String, CoercionInputShape.EmptyString))
          .addModule(
              new SimpleModule("flags and numbers are never null")
                  .addDeserializer(Boolean.class, NullRefusing.of(Boolean.class))
                  .addDeserializer(Long.class, NullRefusing.of(Long.class))
                  .addDeserializer(Integer.class, NullRefusing.of(Integer.class)))
          .build();

  /** A value of the configured type given in any of {@code shapes} is refused, not converted. */
  private static Consumer<MutableCoercionConfig> refusing(CoercionInputShape... shapes) {
    return config -> {
      for (CoercionInputShape shape : shapes) {
        config.setCoercion(shape, CoercionAction.Fail);
      }
    };
  }

  /**
   * The largest body a runtime's payload may be, and so the longest string it may hold: a Claude
   * Code {@code Write} or a Codex {@code apply_patch} carries a whole file (the hook endpoints'
   * limit).
   */
  public static final int PAYLOAD_LIMIT_BYTES = 64 << 20;

  private static final ObjectMapper PAYLOAD =
      JsonMapper.builder(
              JsonFactory.builder()
                  .recyclerPool(JsonRecyclerPools.sharedConcurrentDequePool())
                  .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
                  .streamReadConstraints(
                      StreamReadConstraints.builder().maxStringLength(PAYLOAD_LIMIT_BYTES).build())
                  .build())
          .build();

  private static final byte[] EMPTY_OBJECT = {'{', '}'};
  private static final Pattern QUOTED_NAME = Pattern.compile("'([^']*)'");

  private RequestBodies() {}

  /**
   * The body as a {@code type} ({@code {}} when empty).
   *
   * @throws InvalidRequest naming the field (or the body) that does not fit
   */
  public static <T> T read(byte[] body, Class<T> type) {
    T bound;
    try {
      bound = STRICT.readValue(body.length == 0 ? EMPTY_OBJECT : body, type);
    } catch (IOException e) {
      throw explain(e);
    }
    if (bound == null) {
      throw new InvalidRequest("the body must be a JSON object, not null");
    }
    return bound;
  }

  /**
   * The body of a payload another program defines (a runtime's hook input gains fields with every
   * release), reduced to {@code fields} (dotted paths, {@code tool_input.file_path}) and the
   * objects on their way: read with Jackson's streaming parser, every other value skipped without
   * being made into a string or a tree, so a {@code Write} whose content is the size of the body
   * costs no more than its path. Only the syntax is strict, skipped values included: an empty body,
   * anything but an object, a field given twice, invalid UTF-8, nesting past the parser's limit and
   * data after the object are refused. A kept string may be as long as the body ({@link
   * #PAYLOAD_LIMIT_BYTES}); Jackson's default cap (20,000,000 characters) does not apply to it.
   *
   * @throws InvalidRequest naming what is wrong with the body
   */
  public static ObjectNode readFields(byte[] body, Set<String> fields) {
    if (body.length == 0) {
      throw new InvalidRequest("the body is empty: it must be a JSON object");
    }
    try (JsonParser parser = PAYLOAD.createParser(body)) {
      JsonToken first = parser.nextToken();
      if (first != JsonToken.START_OBJECT) {
        throw new InvalidRequest("the body must be a JSON object, not " + describe(first));
      }
      ObjectNode kept = keep(parser, "", fields);
      if (parser.nextToken() != null) {
        throw new InvalidRequest("the body holds more after its JSON object");
      }
      return kept;
    } catch (IOException e) {
      throw explain(e);
    }
  }

  /**
   * The object whose start the parser is at, with the fields of {@code fields} under {@code prefix}
   * read and every other value skipped; the parser ends at the object's end.
   */
  private static ObjectNode keep(JsonParser parser, String prefix, Set<String> fields)
      throws IOException {
    ObjectNode object = PAYLOAD.createObjectNode();
    for (String name = parser.nextFieldName(); name != null; name = parser.nextFieldName()) {
      String path = prefix + name;
      JsonToken value = parser.nextToken();
      if (fields.contains(path)) {
        object.set(name, parser.readValueAsTree());
      } else if (value == JsonToken.START_OBJECT && leadsTo(fields, path + ".")) {
        object.set(name, keep(parser, path + ".", fields));
      } else {
        // a container is skipped token by token (its syntax still checked); a scalar, as it
        // stands: its text is never made a string
        parser.skipChildren();
      }
    }
    return object;
  }

  private static boolean leadsTo(Set<String> fields, String prefix) {
    return fields.stream().anyMatch(field -> field.startsWith(prefix));
  }

  private static String describe(JsonToken token) {
    if (token == null) {
      return "nothing";
    }
    return switch (token) {
      case START_ARRAY -> "array";
      case VALUE_STRING -> "string";
      case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> "number";
      case VALUE_TRUE, VALUE_FALSE -> "boolean";
      case VALUE_NULL -> "null";
      default ->
          token.asString() == null ? token.name().toLowerCase(Locale.ROOT) : token.asString();
    };
  }

  private static InvalidRequest explain(IOException e) {
    String field = e instanceof JsonMappingException mapping ? field(mapping.getPath()) : "";
    for (Throwable cause = e; cause != null; cause = cause.getCause()) {
      if (cause instanceof InvalidRequest invalid) {
        return invalid; // a record's own check, from its constructor
      }
      if (cause instanceof BadPathException path && !field.isEmpty()) {
        // a path field's value that can name no path ("paths_base64[1]" that is not base64)
        return new InvalidRequest(
            "field '" + field + "' " + path.problem() + ": '" + path.input() + "'");
      }
    }
    return switch (e) {
      case UnrecognizedPropertyException unknown ->
          new InvalidRequest(
              "field '" + field + "' is not known here" + known(unknown.getKnownPropertyIds()));
      case InvalidNullException nullValue ->
          new InvalidRequest("field '" + field + "' must not hold null");
      case MismatchedInputException mismatch
          when mismatch.getMessage().startsWith("Trailing token") ->
          new InvalidRequest("the body holds more after its JSON object");
      case MismatchedInputException mismatch when field.isEmpty() ->
          new InvalidRequest("the body must be a JSON object");
      case MismatchedInputException mismatch ->
          new InvalidRequest("field '" + field + "' must be " + expected(mismatch.getTargetType()));
      case JsonMappingException range
          when range.getCause() instanceof InputCoercionException && !field.isEmpty() ->
          new InvalidRequest("field '" + field + "' is out of range: " + firstLine(range));
      case JsonMappingException mapping when !field.isEmpty() ->
          new InvalidRequest("field '" + field + "' is not valid: " + firstLine(mapping));
      case JsonProcessingException parse
          when parse.getOriginalMessage().startsWith("Duplicate field") ->
          new InvalidRequest(
              "field '" + quotedName(parse.getOriginalMessage()) + "' is given more than once");
      case JsonProcessingException parse ->
          new InvalidRequest("the body is not valid JSON: " + firstLine(parse));
      default -> new InvalidRequest("the body cannot be read: " + e.getMessage());
    };
  }

  /** {@code paths[2]} for the third element of {@code paths}. */
  private static String field(List<JsonMappingException.Reference> path) {
    StringBuilder name = new StringBuilder();
    for (JsonMappingException.Reference reference : path) {
      if (reference.getFieldName() != null) {
        name.append(name.isEmpty() ? "" : ".").append(reference.getFieldName());
      } else if (reference.getIndex() >= 0) {
        name.append('[').append(reference.getIndex()).append(']');
      }
    }
    return name.toString();
  }

  private static String known(Collection<Object> names) {
    if (names == null || names.isEmpty()) {
      return " (this endpoint takes no fields)";
    }
    return " (known: "
        + names.stream().map(String::valueOf).sorted().collect(Collectors.joining(", "))
        + ")";
  }

  private static String expected(Class<?> type) {
    if (type == null) {
      return "of another type";
    }
    if (type == Boolean.class || type == boolean.class) {
      return "true or false";
    }
    if (type == Long.class || type == long.class || type == Integer.class || type == int.class) {
      return "an integer (" + (type == Integer.class || type == int.class ? "32" : "64") + "-bit)";
    }
    if (type == String.class) {
      return "a string";
    }
    if (Collection.class.isAssignableFrom(type)) {
      return "an array";
    }
    return "a JSON object";
  }

  private static String quotedName(String message) {
    Matcher matcher = QUOTED_NAME.matcher(message);
    return matcher.find() ? matcher.group(1) : "?";
  }

  private static String firstLine(JsonProcessingException e) {
    return e.getOriginalMessage().lines().findFirst().orElse("unreadable");
  }
}
