package io.turndiff.boundary;

import io.turndiff.model.BoundaryKind;
import io.turndiff.model.WorkspacePath;
import java.util.Optional;

/**
 * The primitive operations on a workspace, each relative to a held root handle and none following a
 * symlink in any component. {@link WorkspaceBoundary} builds everything else (symlink resolution inside the
 * workspace, classification, records) on top of these, so both implementations share one policy.
 */
interface FileAccess extends AutoCloseable {

  BoundaryKind kind();

  /** Device and inode of the held root directory. */
  StatInfo rootStat();

  Lookup lstat(WorkspacePath path);

  /** The text of the symlink at {@code path}, or null when it could not be read. */
  byte[] readLink(WorkspacePath path);

  ReadOutcome read(WorkspacePath path, long sizeLimit, int retries);

  /**
   * Creates missing parents, writes {@code content} to a new temporary name ({@code temporaryName} first when
   * given and free, then random ones), syncs, renames it over.
   */
  WriteOutcome writeFile(WorkspacePath path, byte[] content, int mode, Optional<String> temporaryName);

  /** Creates a symlink with {@code target} as its text at a temporary name and renames it over. */
  WriteOutcome writeSymlink(WorkspacePath path, byte[] target, Optional<String> temporaryName);

  /** Removes the name (never a directory); a name already gone counts as done. */
  WriteOutcome delete(WorkspacePath path);

  @Override
  void close();
}
