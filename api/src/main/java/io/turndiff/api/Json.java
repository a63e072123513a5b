package io.turndiff.api;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.json.JsonWriteFeature;
import com.fasterxml.jackson.core.util.JsonRecyclerPools;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Optional;

/**
 * The one mapper that writes what turndiff prints (and the HTTP service returns): the wire records
 * of {@link io.turndiff.api.wire}, one per response shape, with snake_case names and every null
 * written, so a shape is its record. Non-ASCII is escaped, so the output is ASCII whatever the
 * locale.
 */
public final class Json {

  private static final ObjectMapper MAPPER =
      JsonMapper.builder(factory())
          .enable(JsonWriteFeature.ESCAPE_NON_ASCII)
          .disable(SerializationFeature.INDENT_OUTPUT)
          .propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
          .build();

  private Json() {}

  /**
   * A factory whose buffers are pooled across threads. Jackson's default pool keeps them per
   * thread, and the service runs each request on a new virtual thread: every response then
   * allocated and zeroed its own buffers (a tenth of a request's CPU in a profile of {@code bench
   * http}).
   */
  static JsonFactory factory() {
    return JsonFactory.builder()
        .recyclerPool(JsonRecyclerPools.sharedConcurrentDequePool())
        .build();
  }

  public static ObjectMapper mapper() {
    return MAPPER;
  }

  /**
   * {@code value} (a wire record, a list of them, or a tree) as JSON text, indented when {@code
   * pretty}.
   */
  public static String write(Object value, boolean pretty) {
    try {
      return pretty
          ? MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(value)
          : MAPPER.writeValueAsString(value);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot write JSON", e);
    }
  }

  /**
   * {@code value} as compact JSON in UTF-8 (ASCII, as non-ASCII is escaped), written straight to
   * bytes: what the service sends.
   */
  public static byte[] writeBytes(Object value) {
    try {
      return MAPPER.writeValueAsBytes(value);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot write JSON", e);
    }
  }

  /**
   * {@code text} read as a {@code type} (a wire record), or empty when it is not one: for the JSON
   * a client of turndiff's own service reads back (its discovery file, its answers). A member the
   * record does not have is passed over, so that a turndiff reads what a newer one wrote (a service
   * and its clients are not always of one version: an upgrade replaces one before the other).
   */
  public static <T> Optional<T> read(String text, Class<T> type) {
    try {
      return Optional.ofNullable(
          MAPPER
              .readerFor(type)
              .without(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
              .<T>readValue(text));
    } catch (JsonProcessingException | RuntimeException e) {
      return Optional.empty();
    }
  }

  /**
   * An empty tree object, for JSON that is not a response (a request in a test, the benchmarks'
   * figures).
   */
  public static ObjectNode object() {
    return MAPPER.getNodeFactory().objectNode();
  }

  public static ArrayNode array() {
    return MAPPER.getNodeFactory().arrayNode();
  }
}
