package io.turndiff.boundary;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The mount points under a workspace root, from {@code /proc/self/mountinfo}. The fallback boundary
 * cannot ask the kernel not to cross mounts ({@code RESOLVE_NO_XDEV}), and a bind mount of a
 * directory on the same file system has the same device number, so it refuses to walk into any
 * directory that is a mount point. Read when the boundary opens; a mount made later needs root, and
 * is caught by the device check only when it is another file system.
 */
final class MountPoints {

  private final Set<String> under;

  private MountPoints(Set<String> under) {
    this.under = under;
  }

  /**
   * No mount points to refuse by name: the kernel refuses every crossing itself ({@code
   * RESOLVE_NO_XDEV}).
   */
  static MountPoints none() {
    return new MountPoints(Set.of());
  }

  static MountPoints under(Path rootReal) {
    Set<String> found = new HashSet<>();
    String prefix = rootReal.toString().endsWith("/") ? rootReal.toString() : rootReal + "/";
    try {
      List<String> lines =
          Files.readAllLines(Path.of("/proc/self/mountinfo"), StandardCharsets.UTF_8);
      for (String line : lines) {
        String[] fields = line.split(" ");
        if (fields.length > 4) {
          String mountPoint = unescape(fields[4]);
          if (mountPoint.startsWith(prefix)) {
            found.add(mountPoint);
          }
        }
      }
    } catch (IOException | RuntimeException unreadable) {
      // no /proc: only the device check remains
    }
    return new MountPoints(found);
  }

  /** mountinfo writes space, tab, newline and backslash as octal escapes. */
  private static String unescape(String field) {
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < field.length(); i++) {
      char c = field.charAt(i);
      if (c == '\\' && i + 3 < field.length()) {
        try {
          out.append((char) Integer.parseInt(field.substring(i + 1, i + 4), 8));
          i += 3;
          continue;
        } catch (NumberFormatException | StringIndexOutOfBoundsException notAnEscape) {
          // keep the backslash
        }
      }
      out.append(c);
    }
    return out.toString();
  }

  boolean isMountPoint(Path absolute) {
    return !under.isEmpty() && under.contains(absolute.toString());
  }
}
