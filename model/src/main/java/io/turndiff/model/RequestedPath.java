package io.turndiff.model;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A path an agent asked about, split and checked, but not yet resolved: its components inside the
 * workspace (still with {@code .} and {@code ..}, which the resolution handles after symlinks), or
 * the lexically normalized name of something outside it.
 */
public sealed interface RequestedPath {

  /** Longest path the kernel accepts by name, without the terminating NUL. */
  int PATH_MAX = 4095;

  /** Longest single name component. */
  int NAME_MAX = 255;

  GivenPath given();

  /**
   * The key by the name alone, {@code .} and {@code ..} applied lexically: what a record of this
   * path is stored under unless a symlink on its way led elsewhere (then the record keeps the given
   * path as {@code via}). The review looks records up by it; the boundary resolves {@code ..} after
   * symlinks instead.
   */
  WorkspacePath lexicalKey();

  /** Inside the workspace as far as the name goes: components relative to the root. */
  record Inside(GivenPath given, List<byte[]> components) implements RequestedPath {

    /** True when no component is {@code .} or {@code ..}: the name can be opened as it is. */
    public boolean plain() {
      return components.stream().noneMatch(RequestedPath::isDotOrDotDot);
    }

    @Override
    public WorkspacePath lexicalKey() {
      return WorkspacePath.ofComponents(normalizeLexically(components));
    }
  }

  /** Outside the workspace by name alone: recorded with metadata only, never opened. */
  record Outside(GivenPath given, WorkspacePath key) implements RequestedPath {

    @Override
    public WorkspacePath lexicalKey() {
      return key;
    }
  }

  static boolean isDot(byte[] component) {
    return component.length == 1 && component[0] == '.';
  }

  static boolean isDotDot(byte[] component) {
    return component.length == 2 && component[0] == '.' && component[1] == '.';
  }

  static boolean isDotOrDotDot(byte[] component) {
    return isDot(component) || isDotDot(component);
  }

  /** Splits on {@code /}, dropping empty components (a leading {@code /} or a doubled one). */
  static List<byte[]> split(byte[] bytes) {
    List<byte[]> components = new ArrayList<>();
    int start = 0;
    for (int i = 0; i <= bytes.length; i++) {
      if (i == bytes.length || bytes[i] == '/') {
        if (i > start) {
          components.add(Arrays.copyOfRange(bytes, start, i));
        }
        start = i + 1;
      }
    }
    return components;
  }

  /**
   * Lexical normalization: drops {@code .}, lets {@code ..} remove the previous component (never
   * past the start).
   */
  static List<byte[]> normalizeLexically(List<byte[]> components) {
    List<byte[]> result = new ArrayList<>();
    for (byte[] component : components) {
      if (isDot(component)) {
        continue;
      }
      if (isDotDot(component)) {
        if (!result.isEmpty()) {
          result.removeLast();
        }
        continue;
      }
      result.add(component);
    }
    return result;
  }

  static boolean startsWith(List<byte[]> path, List<byte[]> prefix) {
    if (prefix.size() > path.size()) {
      return false;
    }
    for (int i = 0; i < prefix.size(); i++) {
      if (!Arrays.equals(path.get(i), prefix.get(i))) {
        return false;
      }
    }
    return true;
  }

  static byte[] joinAbsolute(List<byte[]> components) {
    if (components.isEmpty()) {
      return "/".getBytes(StandardCharsets.US_ASCII);
    }
    int length = 0;
    for (byte[] component : components) {
      length += component.length + 1;
    }
    byte[] joined = new byte[length];
    int at = 0;
    for (byte[] component : components) {
      joined[at++] = '/';
      System.arraycopy(component, 0, joined, at, component.length);
      at += component.length;
    }
    return joined;
  }
}
