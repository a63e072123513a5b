package io.turndiff.model;

import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.regex.Pattern;

/** A SHA-256 digest, kept and printed as 64 lower-case hex digits. */
public record Sha256(String hex) {

  private static final Pattern HEX = Pattern.compile("[0-9a-f]{64}");

  public Sha256 {
    if (!HEX.matcher(hex).matches()) {
      throw new IllegalArgumentException("not a SHA-256 in lower-case hex: " + hex);
    }
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
