package io.turndiff.model;

import java.util.Base64;
import java.util.Collection;
import java.util.List;
import java.util.Objects;

/**
 * A path as a runtime or agent gave it, decoded once at the edge (the CLI's arguments, a request's
 * fields) and read by one {@link PathParser}: as text, or as the exact bytes of a name that need
 * not be UTF-8.
 */
public sealed interface PathInput {

  /**
   * The path exactly as it was given: a text's UTF-8 encoding, or the bytes. Of a text that {@link
   * PathParser} would refuse (an unpaired surrogate) it is only a stand-in: read it after the
   * parser accepted the input.
   */
  GivenPath given();

  /**
   * A path given as text. Its bytes are its UTF-8 encoding, and only a text can hold the sign of a
   * name that was decoded with loss before it reached turndiff (U+FFFD, an unpaired surrogate): the
   * parser refuses it.
   */
  record Text(String text) implements PathInput {
    public Text {
      Objects.requireNonNull(text, "text");
    }

    @Override
    public GivenPath given() {
      return GivenPath.of(text);
    }
  }

  /** A path given as its exact bytes: nothing was decoded, so nothing can have been lost. */
  record Bytes(GivenPath given) implements PathInput {
    public Bytes {
      Objects.requireNonNull(given, "given");
    }
  }

  static PathInput text(String text) {
    return new Text(text);
  }

  /** Each of {@code texts} as a {@link Text}, in order. */
  static List<PathInput> texts(Collection<String> texts) {
    return texts.stream().map(PathInput::text).toList();
  }

  static PathInput bytes(byte[] raw) {
    return new Bytes(GivenPath.of(raw));
  }

  /**
   * The path whose bytes {@code encoded} holds in base64 (RFC 4648, with padding): the only place a
   * base64 path is decoded.
   *
   * @throws BadPathException naming the value when it is not base64
   */
  static PathInput base64(String encoded) {
    try {
      return bytes(Base64.getDecoder().decode(encoded));
    } catch (IllegalArgumentException e) {
      throw new BadPathException(encoded, "is not base64");
    }
  }
}
