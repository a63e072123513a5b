package io.turndiff.model;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The text of a symlink, exactly as {@code readlink} returns it. It is recreated as is, never
 * resolved.
 */
public final class LinkTarget {

  private final byte[] bytes;

  private LinkTarget(byte[] bytes) {
    this.bytes = bytes;
  }

  public static LinkTarget of(byte[] bytes) {
    if (bytes.length == 0) {
      throw new IllegalArgumentException("a symlink's text cannot be empty");
    }
    for (byte b : bytes) {
      if (b == 0) {
        throw new IllegalArgumentException("a symlink's text cannot contain NUL");
      }
    }
    return new LinkTarget(bytes.clone());
  }

  public static LinkTarget of(String text) {
    return of(text.getBytes(StandardCharsets.UTF_8));
  }

  public byte[] bytes() {
    return bytes.clone();
  }

  public boolean isAbsolute() {
    return bytes[0] == '/';
  }

  public boolean isUtf8() {
    return PrintableBytes.isUtf8(bytes);
  }

  public String display() {
    return PrintableBytes.display(bytes);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof LinkTarget other && Arrays.equals(bytes, other.bytes);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(bytes);
  }

  @Override
  public String toString() {
    return display();
  }
}
