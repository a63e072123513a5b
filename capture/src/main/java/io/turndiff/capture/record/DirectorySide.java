package io.turndiff.capture.record;

import io.turndiff.boundary.WorkspaceBoundary;
import io.turndiff.model.DirectoryState;
import io.turndiff.model.FileType;
import io.turndiff.model.Presence;
import io.turndiff.model.Snapshot;
import io.turndiff.model.WorkspacePath;
import java.util.Optional;

/**
 * The directory side of a path: a directory is at it (with its permission bits), or none is. A
 * file, a link or nothing at the path are all "no directory" here, an absent directory: what is at
 * the path otherwise is its file record's to say. So a turn that replaced a file by a directory
 * records that directory as created (and the file as gone), and one that replaced a directory by a
 * file records the directory as removed; a rewind removes the one and makes the other again, around
 * the file, which a file write alone could never do.
 */
public final class DirectorySide {

  private DirectorySide() {}

  /**
   * The directory side of a recorded state: a directory a snapshot named, with its mode; absent for
   * any other state whose presence is known (a file, a link, an absence, metadata-only states
   * included: none is a directory); empty when its presence is unknown, and for a path outside the
   * workspace or a directory on another mount (which leads outside).
   */
  public static Optional<DirectoryState> of(Snapshot state) {
    WorkspacePath path = state.path();
    if (path.isOutside() || state.leadsOutside() || state.presence() == Presence.UNKNOWN) {
      return Optional.empty();
    }
    if (state instanceof Snapshot.Directory directory) {
      return Optional.of(DirectoryState.present(path, directory.stat().mode() & 07777));
    }
    if (state.type().filter(type -> type == FileType.DIRECTORY).isPresent()) {
      return Optional.empty(); // a directory that is not a Directory state is on another mount
    }
    return Optional.of(DirectoryState.absent(path));
  }

  /**
   * The directory side of {@code path} now, nothing followed: the directory with its mode, or
   * absent when nothing is there, something that is not a directory is (a file, a link), or a
   * directory above it is none (a link, which is never followed); empty only when the path cannot
   * be looked at.
   */
  public static Optional<DirectoryState> now(WorkspaceBoundary boundary, WorkspacePath path) {
    Optional<DirectoryState> directory = boundary.directoryAt(path);
    if (directory.isPresent() || path.isOutside()) {
      return directory;
    }
    // neither a directory nor missing: something else holds the name, unless it cannot be looked at
    Optional<DirectoryState> other =
        boundary
            .lstat(path)
            .map(
                found ->
                    found.type() == FileType.DIRECTORY
                        ? DirectoryState.present(path, found.mode())
                        : DirectoryState.absent(path));
    if (other.isPresent()) {
      return other;
    }
    return path.parent()
        .flatMap(parent -> now(boundary, parent))
        .filter(parent -> !parent.present())
        .map(parent -> DirectoryState.absent(path));
  }
}
