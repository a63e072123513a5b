package io.turndiff.boundary;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * One mount's file system type, from {@code /proc/self/mountinfo}, found by the mount's ID: the one
 * exact way to tell devtmpfs from tmpfs, which report the same {@code statfs} number. By ID, not by
 * directory: two mounts stacked at one directory both have a line for it, and only the ID says
 * which one a descriptor is on.
 */
final class MountTable {

  private static final Path MOUNT_INFO = Path.of("/proc/self/mountinfo");

  private MountTable() {}

  /**
   * The type of the mount numbered {@code mountId}; empty when the table cannot be read or has no
   * such mount (unmounted since). Read as ISO-8859-1, one character a byte: a mount point's name
   * may be any bytes, and in UTF-8 one that is not would fail the whole read.
   */
  static Optional<String> typeOfMount(long mountId) {
    String id = Long.toString(mountId);
    try (var lines = Files.lines(MOUNT_INFO, StandardCharsets.ISO_8859_1)) {
      return lines
          .filter(line -> line.startsWith(id + " "))
          .findFirst()
          .flatMap(MountTable::typeOn);
    } catch (IOException | UncheckedIOException unreadable) {
      return Optional.empty();
    }
  }

  /**
   * The type on a line: the first field after the lone {@code -} that ends the optional fields
   * ({@code 36 35 98:0 /mnt1 /mnt/parent rw,noatime master:1 - ext3 /dev/root rw}).
   */
  private static Optional<String> typeOn(String line) {
    String[] fields = line.split(" ");
    for (int i = 6; i + 1 < fields.length; i++) {
      if (fields[i].equals("-")) {
        return Optional.of(fields[i + 1]);
      }
    }
    return Optional.empty();
  }
}
