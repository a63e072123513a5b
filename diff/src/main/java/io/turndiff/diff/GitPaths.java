package io.turndiff.diff;

import java.nio.charset.StandardCharsets;

/**
 * Path names in git's patch headers: quoted C-style when they hold control characters, a quote, a
 * backslash or bytes over 0x7f (git's default {@code core.quotePath}), so that any name survives
 * {@code git apply}.
 */
final class GitPaths {

  private GitPaths() {}

  /**
   * {@code prefix} + the name, quoted as a whole when the name needs quoting ({@code
   * "a/caf\303\251"}).
   */
  static String header(String prefix, byte[] name) {
    boolean quote = false;
    for (byte b : name) {
      int c = b & 0xff;
      if (c < 0x20 || c == '"' || c == '\\' || c >= 0x7f) {
        quote = true;
        break;
      }
    }
    if (!quote) {
      return prefix + new String(name, StandardCharsets.UTF_8);
    }
    StringBuilder out = new StringBuilder("\"").append(prefix);
    for (byte b : name) {
      int c = b & 0xff;
      switch (c) {
        case 0x07 -> out.append("\\a");
        case '\b' -> out.append("\\b");
        case '\t' -> out.append("\\t");
        case '\n' -> out.append("\\n");
        case 0x0b -> out.append("\\v");
        case '\f' -> out.append("\\f");
        case '\r' -> out.append("\\r");
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        default -> {
          if (c < 0x20 || c >= 0x7f) {
            out.append('\\').append(String.format("%03o", c));
          } else {
            out.append((char) c);
          }
        }
      }
    }
    return out.append('"').toString();
  }
}
