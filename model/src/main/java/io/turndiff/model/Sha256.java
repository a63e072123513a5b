package io.turndiff.model;

import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** A SHA-256 digest, kept and printed as 64 lower-case hex digits. */
public record Sha256(String hex) {

  private static final int HEX_DIGITS = 64;

  public Sha256 {
    if (!isLowerHex(hex)) {
      throw new IllegalArgumentException("not a SHA-256 in lower-case hex: " + hex);
    }
  }

  /**
   * Whether {@code text} is 64 lower-case hex digits. A loop, not a regular expression: a snapshot
   * call makes several of these, and the pattern's matcher was 1.7 % of the call's CPU in the
   * profile of JMH {@code SnapshotCall} (2026-12-05).
   */
  private static boolean isLowerHex(String text) {
    if (text == null || text.length() != HEX_DIGITS) {
      return false;
    }
    for (int i = 0; i < HEX_DIGITS; i++) {
      char c = text.charAt(i);
      if (!(c >= '0' && c <= '9') && !(c >= 'a' && c <= 'f')) {
        return false;
      }
    }
    return true;
  }

  public static Sha256 of(byte[] content) {
    MessageDigest digest = newDigest();
    digest.update(content);
    return fromDigest(digest);
  }

  public static Sha256 of(ByteBuffer content) {
    MessageDigest digest = newDigest();
    digest.update(content);
    return fromDigest(digest);
  }

  public static MessageDigest newDigest() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JDK has SHA-256", e);
    }
  }

  public static Sha256 fromDigest(MessageDigest digest) {
    return new Sha256(HexFormat.of().formatHex(digest.digest()));
  }

  @Override
  public String toString() {
    return hex;
  }
}
