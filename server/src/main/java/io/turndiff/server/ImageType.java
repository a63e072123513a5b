package io.turndiff.server;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Optional;

/**
 * An image format told by a file's own bytes, never by its name: a file called {@code logo.png}
 * that holds text is no image, and one called {@code notes.txt} that holds a PNG is one. The
 * content type a stored state is served with comes from here alone, so a browser is never told to
 * read bytes as something they do not start as.
 */
enum ImageType {
  PNG("image/png"),
  JPEG("image/jpeg"),
  GIF("image/gif"),
  SVG("image/svg+xml");

  /** How far into a file an SVG's root element may start, after an XML declaration or comments. */
  static final int SVG_PROLOGUE_BYTES = 1024;

  private static final byte[] PNG_SIGNATURE = {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
  private static final byte[] JPEG_SIGNATURE = {(byte) 0xff, (byte) 0xd8, (byte) 0xff};
  private static final byte[] GIF87 = "GIF87a".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] GIF89 = "GIF89a".getBytes(StandardCharsets.US_ASCII);

  private final String contentType;

  ImageType(String contentType) {
    this.contentType = contentType;
  }

  String contentType() {
    return contentType;
  }

  /** The image {@code content} is by its first bytes, or empty when it is none of the four. */
  static Optional<ImageType> of(byte[] content) {
    if (startsWith(content, PNG_SIGNATURE)) {
      return Optional.of(PNG);
    }
    if (startsWith(content, JPEG_SIGNATURE)) {
      return Optional.of(JPEG);
    }
    if (startsWith(content, GIF87) || startsWith(content, GIF89)) {
      return Optional.of(GIF);
    }
    return isSvg(content) ? Optional.of(SVG) : Optional.empty();
  }

  private static boolean startsWith(byte[] content, byte[] signature) {
    return content.length >= signature.length
        && Arrays.equals(content, 0, signature.length, signature, 0, signature.length);
  }

  /**
   * An SVG is text, so it has no magic number: it is one when, after an optional byte-order mark
   * and white space, it opens with its root element {@code <svg}, or with an XML declaration, a
   * comment or a doctype and then has {@code <svg} within its first {@link #SVG_PROLOGUE_BYTES}.
   * Nothing is parsed (a parser is what a hostile file would aim at); a file that passes this check
   * but is not a well-formed SVG is only an image the browser fails to draw, because it is served
   * as {@code image/svg+xml} with a policy under which nothing in it runs.
   */
  private static boolean isSvg(byte[] content) {
    String start =
        new String(
            content, 0, Math.min(content.length, SVG_PROLOGUE_BYTES), StandardCharsets.ISO_8859_1);
    String text = start.startsWith("\u00ef\u00bb\u00bf") ? start.substring(3) : start;
    text = text.stripLeading();
    if (startsRoot(text, 0)) {
      return true;
    }
    if (!text.startsWith("<?xml") && !text.startsWith("<!--") && !text.startsWith("<!DOCTYPE")) {
      return false;
    }
    for (int at = text.indexOf("<svg"); at >= 0; at = text.indexOf("<svg", at + 1)) {
      if (startsRoot(text, at)) {
        return true;
      }
    }
    return false;
  }

  /**
   * {@code <svg} at {@code at}, followed by white space, {@code >} or {@code /} (not {@code
   * <svgx}).
   */
  private static boolean startsRoot(String text, int at) {
    if (!text.startsWith("<svg", at)) {
      return false;
    }
    int next = at + "<svg".length();
    if (next == text.length()) {
      return false;
    }
    char after = text.charAt(next);
    return after == '>' || after == '/' || Character.isWhitespace(after);
  }
}
