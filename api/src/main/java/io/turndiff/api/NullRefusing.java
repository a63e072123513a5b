package io.turndiff.api;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.deser.std.NumberDeserializers;
import com.fasterxml.jackson.databind.exc.InvalidNullException;
import com.fasterxml.jackson.databind.type.LogicalType;
import java.io.IOException;

/**
 * A flag or a number read as Jackson's own deserializer reads it, except that JSON {@code null} is
 * refused: the field may be left out (the record's default applies), but a null is no value, and
 * read as absent it would turn {@code {"dry_run": null}} into a real rewind. (Jackson's {@code
 * Nulls.FAIL} cannot say this: for a record's constructor it refuses a field left out as well.)
 */
final class NullRefusing<T> extends JsonDeserializer<T> {

  private final Class<T> type;
  private final JsonDeserializer<T> standard;

  private NullRefusing(Class<T> type, JsonDeserializer<T> standard) {
    this.type = type;
    this.standard = standard;
  }

  @SuppressWarnings("unchecked")
  static <T> NullRefusing<T> of(Class<T> wrapper) {
    return new NullRefusing<>(
        wrapper, (JsonDeserializer<T>) NumberDeserializers.find(wrapper, wrapper.getName()));
  }

  @Override
  public T deserialize(JsonParser parser, DeserializationContext context) throws IOException {
    return standard.deserialize(parser, context);
  }

  /** A {@code null} given for the field. */
  @Override
  public T getNullValue(DeserializationContext context) throws JsonMappingException {
    throw InvalidNullException.from(context, null, context.constructType(type));
  }

  /** The field left out. */
  @Override
  public Object getAbsentValue(DeserializationContext context) {
    return null;
  }

  @Override
  public LogicalType logicalType() {
    return standard.logicalType();
  }

  @Override
  public Class<?> handledType() {
    return type;
  }
}
