package io.turndiff.ownfiles;

import java.io.IOException;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The space left on the file system that holds one of turndiff's own places (the store's folder),
 * as {@code df} shows it: what this user may still write ({@code usable}) of the file system's
 * {@code total}. A place not made yet is measured at its nearest existing folder, where it will be.
 *
 * @param place the folder measured
 */
public record DiskSpace(Path place, long usableBytes, long totalBytes) {

  /** The space where {@code path} is or will be; empty when no folder above it can be read. */
  public static Optional<DiskSpace> at(Path path) {
    for (Path place = path.toAbsolutePath(); place != null; place = place.getParent()) {
      if (Files.isDirectory(place)) {
        try {
          FileStore store = Files.getFileStore(place);
          return Optional.of(new DiskSpace(place, store.getUsableSpace(), store.getTotalSpace()));
        } catch (IOException | SecurityException unreadable) {
          return Optional.empty();
        }
      }
    }
    return Optional.empty();
  }
}
