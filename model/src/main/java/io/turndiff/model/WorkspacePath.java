package io.turndiff.model;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * The name of a path as turndiff records it: raw bytes, because file names need not be UTF-8 and
 * two different names must never collapse into one key.
 *
 * <p>Inside the workspace a path is relative to the root, its components separated by {@code /},
 * with no empty, {@code .} or {@code ..} component. A path outside the workspace (an absolute path
 * given by an agent, or a {@code ..} that leaves the root) is recorded with its absolute, lexically
 * normalized name, and {@link #isOutside()} says so. Such a path is only ever a record key: nothing
 * is opened through it.
 */
public final class WorkspacePath implements Comparable<WorkspacePath> {

  private final byte[] bytes;
  private final boolean outside;

  /** Cached: paths are map keys by the ten thousand when a tree is scanned. */
  private int hash;

  private WorkspacePath(byte[] bytes, boolean outside) {
    this.bytes = bytes;
    this.outside = outside;
  }

  /** A workspace-relative path from its components, each validated. */
  public static WorkspacePath ofComponents(List<byte[]> components) {
    if (components.isEmpty()) {
      throw new IllegalArgumentException("a workspace path needs at least one component");
    }
    int length = components.size() - 1;
    for (byte[] component : components) {
      checkComponent(component);
      length += component.length;
    }
    byte[] joined = new byte[length];
    int at = 0;
    for (int i = 0; i < components.size(); i++) {
      if (i > 0) {
        joined[at++] = '/';
      }
      byte[] component = components.get(i);
      System.arraycopy(component, 0, joined, at, component.length);
      at += component.length;
    }
    return new WorkspacePath(joined, false);
  }

  /** A workspace-relative path from its stored bytes ({@code a/b/c}). */
  public static WorkspacePath ofRelativeBytes(byte[] bytes) {
    List<byte[]> components = split(bytes);
    return ofComponents(components);
  }

  /** A workspace-relative path from a UTF-8 string ({@code a/b/c}); for tests and fixed names. */
  public static WorkspacePath of(String relative) {
    return ofRelativeBytes(relative.getBytes(StandardCharsets.UTF_8));
  }

  /** The record key of a path outside the workspace: its normalized absolute name. */
  public static WorkspacePath outside(byte[] absolute) {
    if (absolute.length == 0 || absolute[0] != '/') {
      throw new IllegalArgumentException("an outside path is absolute");
    }
    for (byte b : absolute) {
      if (b == 0) {
        throw new IllegalArgumentException("a path cannot contain NUL");
      }
    }
    return new WorkspacePath(absolute.clone(), true);
  }

  /**
   * Reads a stored key back: absolute keys are outside paths, all others are workspace-relative.
   */
  public static WorkspacePath fromStored(byte[] stored) {
    return stored.length > 0 && stored[0] == '/' ? outside(stored) : ofRelativeBytes(stored);
  }

  private static void checkComponent(byte[] component) {
    if (component.length == 0) {
      throw new IllegalArgumentException("empty path component");
    }
    if ((component.length == 1 && component[0] == '.')
        || (component.length == 2 && component[0] == '.' && component[1] == '.')) {
      throw new IllegalArgumentException("'.' and '..' are not workspace path components");
    }
    for (byte b : component) {
      if (b == 0 || b == '/') {
        throw new IllegalArgumentException("a path component cannot contain NUL or '/'");
      }
    }
  }

  private static List<byte[]> split(byte[] bytes) {
    List<byte[]> components = new ArrayList<>();
    int start = 0;
    for (int i = 0; i <= bytes.length; i++) {
      if (i == bytes.length || bytes[i] == '/') {
        components.add(Arrays.copyOfRange(bytes, start, i));
        start = i + 1;
      }
    }
    return components;
  }

  public boolean isOutside() {
    return outside;
  }

  /** The stored form: relative bytes, or the absolute name of an outside path. */
  public byte[] bytes() {
    return bytes.clone();
  }

  public int length() {
    return bytes.length;
  }

  /** The components of a workspace-relative path. */
  public List<byte[]> components() {
    requireInside();
    return split(bytes);
  }

  /** The last component. */
  public byte[] name() {
    requireInside();
    int slash = lastSlash();
    return Arrays.copyOfRange(bytes, slash + 1, bytes.length);
  }

  /** The parent path's components; empty for a path directly under the root. */
  public List<byte[]> parentComponents() {
    List<byte[]> components = components();
    return components.subList(0, components.size() - 1);
  }

  /** The path of {@code name} inside this directory path. */
  public WorkspacePath child(byte[] name) {
    requireInside();
    checkComponent(name);
    byte[] joined = Arrays.copyOf(bytes, bytes.length + 1 + name.length);
    joined[bytes.length] = '/';
    System.arraycopy(name, 0, joined, bytes.length + 1, name.length);
    return new WorkspacePath(joined, false);
  }

  /** The parent path, or empty for a path directly under the root. */
  public Optional<WorkspacePath> parent() {
    requireInside();
    int slash = lastSlash();
    return slash < 0
        ? Optional.empty()
        : Optional.of(new WorkspacePath(Arrays.copyOf(bytes, slash), false));
  }

  /** Whether this path is {@code ancestor} or lies under it. */
  public boolean isWithin(WorkspacePath ancestor) {
    if (outside || ancestor.outside || bytes.length < ancestor.bytes.length) {
      return false;
    }
    if (!Arrays.equals(bytes, 0, ancestor.bytes.length, ancestor.bytes, 0, ancestor.bytes.length)) {
      return false;
    }
    return bytes.length == ancestor.bytes.length || bytes[ancestor.bytes.length] == '/';
  }

  public WorkspacePath resolveSibling(byte[] name) {
    List<byte[]> components = new ArrayList<>(parentComponents());
    components.add(name);
    return ofComponents(components);
  }

  private int lastSlash() {
    for (int i = bytes.length - 1; i >= 0; i--) {
      if (bytes[i] == '/') {
        return i;
      }
    }
    return -1;
  }

  private void requireInside() {
    if (outside) {
      throw new IllegalStateException("an outside path has no workspace components: " + display());
    }
  }

  /** Whether the bytes are valid UTF-8, so that {@link #display()} is lossless. */
  public boolean isUtf8() {
    return PrintableBytes.isUtf8(bytes);
  }

  /**
   * The path as text: the UTF-8 name when the bytes are UTF-8, otherwise every byte outside
   * printable ASCII (and the backslash) written as {@code \xNN}. Only for people; {@link #bytes()}
   * is the key.
   */
  public String display() {
    return PrintableBytes.display(bytes);
  }

  @Override
  public int compareTo(WorkspacePath other) {
    return Arrays.compareUnsigned(bytes, other.bytes);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof WorkspacePath other
        && outside == other.outside
        && Arrays.equals(bytes, other.bytes);
  }

  @Override
  public int hashCode() {
    int h = hash;
    if (h == 0) {
      h = Arrays.hashCode(bytes);
      hash = h;
    }
    return h;
  }

  @Override
  public String toString() {
    return display();
  }
}
