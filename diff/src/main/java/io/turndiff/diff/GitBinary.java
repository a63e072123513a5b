package io.turndiff.diff;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.zip.Deflater;

/**
 * git's object hash and its binary patch encoding ({@code GIT binary patch}, zlib + base85 lines).
 */
final class GitBinary {

  private static final char[] BASE85 =
      "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz!#$%&()*+-;<=>?@^_`{|}~"
          .toCharArray();
  static final String NO_OBJECT = "0000000000000000000000000000000000000000";

  private GitBinary() {}

  /** The SHA-1 git gives {@code content} as a blob: {@code sha1("blob <size>\0" + content)}. */
  static String blobId(byte[] content) {
    try {
      MessageDigest sha1 = MessageDigest.getInstance("SHA-1");
      sha1.update(("blob " + content.length + "\0").getBytes(StandardCharsets.US_ASCII));
      sha1.update(content);
      return HexFormat.of().formatHex(sha1.digest());
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JDK has SHA-1", e);
    }
  }

  /**
   * One {@code literal} hunk: the whole content, deflated and base85-encoded, then an empty line.
   */
  static String literal(byte[] content) {
    byte[] deflated = deflate(content);
    StringBuilder out = new StringBuilder("literal ").append(content.length).append('\n');
    for (int at = 0; at < deflated.length; at += 52) {
      int length = Math.min(52, deflated.length - at);
      out.append(length <= 26 ? (char) ('A' + length - 1) : (char) ('a' + length - 27));
      for (int group = 0; group < length; group += 4) {
        long value = 0;
        for (int k = 0; k < 4; k++) {
          int index = at + group + k;
          value = (value << 8) | (group + k < length ? deflated[index] & 0xff : 0);
        }
        char[] five = new char[5];
        for (int k = 4; k >= 0; k--) {
          five[k] = BASE85[(int) (value % 85)];
          value /= 85;
        }
        out.append(five);
      }
      out.append('\n');
    }
    return out.append('\n').toString();
  }

  private static byte[] deflate(byte[] content) {
    Deflater deflater = new Deflater(Deflater.BEST_COMPRESSION);
    try {
      deflater.setInput(content);
      deflater.finish();
      ByteArrayOutputStream out = new ByteArrayOutputStream(Math.max(64, content.length / 2));
      byte[] buffer = new byte[8192];
      while (!deflater.finished()) {
        out.write(buffer, 0, deflater.deflate(buffer));
      }
      return out.toByteArray();
    } finally {
      deflater.end();
    }
  }
}
