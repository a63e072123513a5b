package io.turndiff.boundary;

import io.turndiff.model.LinkTarget;
import io.turndiff.model.WorkspacePath;
import java.util.Optional;

/**
 * One path written or removed with the product's own sequence, as a rewind runs it for many: staged
 * (the new file synced), committed over whatever the name holds now (discarded when it cannot be),
 * its directory synced. Unlike the product, these never ask what they replace: the boundary's tests
 * use them to prove what a write may and may not touch whatever is in the way (a link, a hardlink,
 * a FIFO, a directory). The product never writes without looking first, so they live here and not
 * in it.
 */
final class OneFileWrites {

  private OneFileWrites() {}

  /** Puts {@code content} at {@code path} with permission bits {@code mode}. */
  static WriteOutcome writeFile(
      WorkspaceBoundary boundary, WorkspacePath path, byte[] content, int mode) {
    return writeFile(boundary, path, content, mode, Optional.empty());
  }

  /** As {@link #writeFile(WorkspaceBoundary, WorkspacePath, byte[], int)}, staged under a name. */
  static WriteOutcome writeFile(
      WorkspaceBoundary boundary,
      WorkspacePath path,
      byte[] content,
      int mode,
      Optional<String> temporaryName) {
    return committed(boundary, path, boundary.stageFile(path, content, mode, temporaryName));
  }

  /** Puts a symlink with exactly {@code target} as its text at {@code path}. */
  static WriteOutcome writeSymlink(
      WorkspaceBoundary boundary, WorkspacePath path, LinkTarget target) {
    return committed(boundary, path, boundary.stageSymlink(path, target, Optional.empty()));
  }

  /** Removes the name {@code path} (never a directory); a name already gone counts as done. */
  static WriteOutcome delete(WorkspaceBoundary boundary, WorkspacePath path) {
    return synced(
        boundary, path, boundary.deleteIfUnchanged(path, new OverLimit.Sample(), anything -> true));
  }

  private static WriteOutcome committed(
      WorkspaceBoundary boundary, WorkspacePath path, WriteOutcome staged) {
    if (!(staged instanceof WriteOutcome.Staged file)) {
      return staged;
    }
    WriteOutcome renamed =
        boundary.commitIfUnchanged(file, new OverLimit.Sample(), anything -> true);
    if (!renamed.done()) {
      // as a rewind does with a file it could not commit: no temporary file is left behind
      boundary.discard(file);
    }
    return synced(boundary, path, renamed);
  }

  private static WriteOutcome synced(
      WorkspaceBoundary boundary, WorkspacePath path, WriteOutcome changed) {
    return changed.done() ? boundary.syncDirectory(path.parent()) : changed;
  }
}
