package io.turndiff.capture.track;

import io.turndiff.boundary.MemoryFile;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.eclipse.jgit.dircache.DirCache;
import org.eclipse.jgit.dircache.DirCacheEntry;
import org.eclipse.jgit.util.FS;

/**
 * The names of the paths a git index file holds ({@code .git/index}), read by JGit's {@code
 * DirCache} from the bytes the workspace boundary read.
 *
 * <p>{@code DirCache} reads an index only from a {@code java.io.File}, by name: given the
 * workspace's own {@code .git/index} it would follow a symlinked {@code .git}, or a name swapped
 * under it, out of the workspace. So the boundary reads the bytes (beneath the root, nothing
 * followed), and {@code DirCache} parses them from an anonymous file in memory ({@link
 * MemoryFile}): no copy is ever written to a directory, so none can be read by another process or
 * left behind by a crash. Where no such file can be made, the index is not used (the ignore rules
 * alone decide), as for any index turndiff cannot read. What JGit cannot read completely is
 * refused: a split index ({@code core.splitIndex}, whose {@code link} extension holds only part of
 * the names), a sparse index, an index of a SHA-256 repository, bytes that are not an index.
 */
final class GitIndexFile {

  private GitIndexFile() {}

  /**
   * The path names in {@code index}, each once; empty when JGit cannot read the bytes as a complete
   * index.
   */
  static Optional<List<byte[]>> names(byte[] index) {
    Optional<MemoryFile> held = MemoryFile.holding("turndiff-git-index", index);
    if (held.isEmpty()) {
      return Optional.empty();
    }
    try (MemoryFile copy = held.get()) {
      DirCache cache = DirCache.read(copy.file(), FS.DETECTED);
      List<byte[]> names = new ArrayList<>(cache.getEntryCount());
      byte[] previous = new byte[0];
      for (int i = 0; i < cache.getEntryCount(); i++) {
        DirCacheEntry entry = cache.getEntry(i);
        byte[] name = entry.getRawPath();
        // the stages of a conflicted path follow each other: the path is named once
        if (!Arrays.equals(name, previous)) {
          names.add(name);
        }
        previous = name;
      }
      return Optional.of(names);
    } catch (IOException | RuntimeException notAnIndexJGitReads) {
      return Optional.empty();
    }
  }
}
