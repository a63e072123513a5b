package io.turndiff.api;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.deser.std.StdDeserializer;
import com.fasterxml.jackson.databind.type.LogicalType;
import io.turndiff.model.PathInput;
import java.io.IOException;
import java.util.function.Function;

/**
 * The request fields that hold paths, bound straight to {@link PathInput}: a string of {@code
 * paths} is a text, one of {@code paths_base64} is decoded here (by {@link PathInput#base64}, the
 * only decoder) into exact bytes. A value that is not a string, or not base64, fails the binding;
 * {@link RequestBodies} names the field and index.
 */
final class PathFields {

  private PathFields() {}

  /** A path given as text. */
  static final class Text extends PathField {

    Text() {
      super(PathInput::text);
    }
  }

  /** A path given as base64 of its bytes. */
  static final class Base64 extends PathField {

    Base64() {
      super(PathInput::base64);
    }
  }

  /** A string field read into a path by {@code decode}. */
  private abstract static sealed class PathField extends StdDeserializer<PathInput>
      permits Text, Base64 {

    private final transient Function<String, PathInput> decode;

    PathField(Function<String, PathInput> decode) {
      super(PathInput.class);
      this.decode = decode;
    }

    @Override
    public PathInput deserialize(JsonParser parser, DeserializationContext context)
        throws IOException {
      return decode.apply(string(parser, context));
    }

    @Override
    public LogicalType logicalType() {
      return LogicalType.Textual;
    }
  }

  /** The string value; anything else is the mismatch Jackson reports for a string field. */
  private static String string(JsonParser parser, DeserializationContext context)
      throws IOException {
    if (!parser.hasToken(JsonToken.VALUE_STRING)) {
      return (String) context.handleUnexpectedToken(String.class, parser);
    }
    return parser.getText();
  }
}
