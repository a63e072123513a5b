package io.turndiff.model;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A path exactly as a runtime or agent gave it (relative or absolute, with {@code .} and {@code
 * ..}), kept as {@code via} when the recorded path is another one: the file a symlink led to, or a
 * normalized name.
 */
public final class GivenPath {

  private final byte[] bytes;

  private GivenPath(byte[] bytes) {
    this.bytes = bytes;
  }

  public static GivenPath of(byte[] bytes) {
    return new GivenPath(bytes.clone());
  }

  public static GivenPath of(String text) {
    return new GivenPath(text.getBytes(StandardCharsets.UTF_8));
  }

  public byte[] bytes() {
    return bytes.clone();
  }

  public boolean sameBytesAs(WorkspacePath path) {
    return Arrays.equals(bytes, path.bytes());
  }

  public String display() {
    return PrintableBytes.display(bytes);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof GivenPath other && Arrays.equals(bytes, other.bytes);
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
