package io.turndiff.api;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.deser.std.StdDeserializer;
import com.fasterxml.jackson.databind.exc.InvalidNullException;
import com.fasterxml.jackson.databind.type.LogicalType;
import io.turndiff.model.PathInput;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
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

  /** A list of paths given as text, never null. */
  static final class TextList extends PathList {

    TextList() {
      super(new Text());
    }
  }

  /** A list of paths given as base64 of their bytes, never null. */
  static final class Base64List extends PathList {

    Base64List() {
      super(new Base64());
    }
  }

  /**
   * A list of paths that may be left out but is never {@code null}: read as absent, {@code "paths":
   * null} would turn a rewind of some paths into a rewind of every path. An element that is null,
   * not a string, or no path fails naming its index ({@code paths[1]}).
   */
  private abstract static sealed class PathList extends StdDeserializer<List<PathInput>>
      permits TextList, Base64List {

    private final transient PathField element;

    PathList(PathField element) {
      super(List.class);
      this.element = element;
    }

    @Override
    @SuppressWarnings("unchecked")
    public List<PathInput> deserialize(JsonParser parser, DeserializationContext context)
        throws IOException {
      if (!parser.isExpectedStartArrayToken()) {
        return (List<PathInput>) context.handleUnexpectedToken(List.class, parser);
      }
      List<PathInput> paths = new ArrayList<>();
      for (JsonToken token = parser.nextToken();
          token != JsonToken.END_ARRAY;
          token = parser.nextToken()) {
        try {
          if (token == JsonToken.VALUE_NULL) {
            throw InvalidNullException.from(context, null, context.constructType(PathInput.class));
          }
          paths.add(element.deserialize(parser, context));
        } catch (IOException | RuntimeException e) {
          throw JsonMappingException.wrapWithPath(e, paths, paths.size());
        }
      }
      return paths;
    }

    /** {@code null} given for the list. */
    @Override
    public List<PathInput> getNullValue(DeserializationContext context)
        throws JsonMappingException {
      throw InvalidNullException.from(context, null, context.constructType(List.class));
    }

    /** The list left out. */
    @Override
    public Object getAbsentValue(DeserializationContext context) {
      return null;
    }

    @Override
    public LogicalType logicalType() {
      return LogicalType.Collection;
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
