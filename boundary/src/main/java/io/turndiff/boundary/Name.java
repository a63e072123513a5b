package io.turndiff.boundary;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/**
 * One component of a workspace path, the only kind of name a {@link DirectoryHandle} takes: never
 * empty, never {@code .} or {@code ..}, never holding {@code /} or NUL. A handle operation on a
 * name therefore acts on exactly one entry of the directory it is given, whatever the name's bytes
 * are.
 */
record Name(byte[] bytes) {

  Name {
    if (bytes.length == 0 || Arrays.equals(bytes, DOT) || Arrays.equals(bytes, DOT_DOT)) {
      throw new IllegalArgumentException(
          "not a single component: '" + new String(bytes, StandardCharsets.UTF_8) + "'");
    }
    for (byte b : bytes) {
      if (b == '/' || b == 0) {
        throw new IllegalArgumentException("a component holds '/' or NUL");
      }
    }
    bytes = bytes.clone();
  }

  private static final byte[] DOT = {'.'};
  private static final byte[] DOT_DOT = {'.', '.'};

  static Name of(byte[] component) {
    return new Name(component);
  }

  static Name of(String component) {
    return new Name(component.getBytes(StandardCharsets.UTF_8));
  }

  @Override
  public byte[] bytes() {
    return bytes.clone();
  }

  /** The bytes without a copy, for a system call that only reads them. */
  byte[] raw() {
    return bytes;
  }

  /** {@code location} with this name appended: where the entry is, as components from the root. */
  List<byte[]> under(List<byte[]> location) {
    byte[][] all = location.toArray(new byte[location.size() + 1][]);
    all[location.size()] = bytes;
    return List.of(all);
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof Name name && Arrays.equals(bytes, name.bytes);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(bytes);
  }

  @Override
  public String toString() {
    return new String(bytes, StandardCharsets.UTF_8);
  }
}
