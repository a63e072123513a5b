package io.turndiff.track;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.eclipse.jgit.dircache.DirCache;
import org.eclipse.jgit.dircache.DirCacheEntry;
import org.eclipse.jgit.util.FS;

/**
 * The names of the paths a git index file holds ({@code .git/index}), read by JGit's {@code DirCache} from the
 * bytes the workspace boundary read.
 *
 * <p>{@code DirCache} reads an index only from a {@code java.io.File}, by name: given the workspace's own
 * {@code .git/index} it would follow a symlinked {@code .git}, or a name swapped under it, out of the
 * workspace. So the boundary reads the bytes (beneath the root, nothing followed), and {@code DirCache} parses a
 * private copy of them, owner-only in the temporary directory, deleted at once. What JGit cannot read
 * completely is refused: a split index ({@code core.splitIndex}, whose {@code link} extension holds only part
 * of the names), a sparse index, an index of a SHA-256 repository, bytes that are not an index.
 */
final class GitIndexFile {

  private GitIndexFile() {
  }

  /** The path names in {@code index}, each once; empty when JGit cannot read the bytes as a complete index. */
  static Optional<List<byte[]>> names(byte[] index) {
    Path copy = null;
    try {
      copy = Files.createTempFile("turndiff-git-index-", ".tmp",
          PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
      Files.write(copy, index);
      DirCache cache = DirCache.read(copy.toFile(), FS.DETECTED);
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
    } finally {
      if (copy != null) {
        try {
          Files.deleteIfExists(copy);
        } catch (IOException ignored) {
          // a leftover private temp file; the next read makes a new one
        }
      }
    }
  }
}
