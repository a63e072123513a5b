package io.turndiff.model;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;

/**
 * Shows raw name bytes to people: the UTF-8 text when they are UTF-8, otherwise with {@code \xNN}
 * escapes.
 */
public final class PrintableBytes {

  private static final HexFormat HEX = HexFormat.of();

  private PrintableBytes() {}

  /** Whether {@code bytes} are valid UTF-8 (strictly: no malformed or unmappable sequence). */
  public static boolean isUtf8(byte[] bytes) {
    try {
      StandardCharsets.UTF_8
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(bytes));
      return true;
    } catch (CharacterCodingException e) {
      return false;
    }
  }

  static String display(byte[] bytes) {
    if (isUtf8(bytes)) {
      return new String(bytes, StandardCharsets.UTF_8);
    }
    StringBuilder text = new StringBuilder();
    for (byte b : bytes) {
      if (b >= 0x20 && b < 0x7f && b != '\\') {
        text.append((char) b);
      } else {
        text.append("\\x").append(HEX.toHexDigits(b));
      }
    }
    return text.toString();
  }
}
