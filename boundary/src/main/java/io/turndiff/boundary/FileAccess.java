package io.turndiff.boundary;

import io.turndiff.model.BoundaryKind;
import io.turndiff.model.WorkspacePath;
import java.io.InputStream;
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

  /**
   * Whether the symlink at {@code path} finally leads to a directory, as the kernel resolves it (every link on
   * the way followed before a {@code ..} applies): a stat that follows the link, relative to its parent held
   * open from the root. Metadata only: nothing is opened, listed or read. False when it leads nowhere, to
   * anything but a directory, or cannot be looked at.
   */
  boolean leadsToDirectory(WorkspacePath path);

  /**
   * Reads the regular file at {@code path}: whole when it is at most {@code sizeLimit} bytes, else as
   * {@code overLimit} says; a file that moves while it is read is read again, up to {@code retries} times.
   */
  ReadOutcome read(WorkspacePath path, long sizeLimit, int retries, OverLimit overLimit);

  /**
   * Creates missing parents, writes {@code content} to a new temporary name, syncs, renames it over. With
   * {@code temporaryName}, exactly that name: when it is taken, nothing is written and the outcome is
   * {@link WriteOutcome.NameTaken}; without, fresh random names until one is free.
   */
  WriteOutcome writeFile(WorkspacePath path, byte[] content, int mode, Optional<String> temporaryName);

  /** As {@link #writeFile(WorkspacePath, byte[], int, Optional)}, streaming the content from {@code content}. */
  WriteOutcome writeFile(WorkspacePath path, InputStream content, int mode, Optional<String> temporaryName);

  /** Creates a symlink with {@code target} as its text at a temporary name and renames it over. */
  WriteOutcome writeSymlink(WorkspacePath path, byte[] target, Optional<String> temporaryName);

  /** Removes the name (never a directory); a name already gone counts as done. */
  WriteOutcome delete(WorkspacePath path);

  /**
   * The first half of {@link #writeFile} for many files at once: parents created, content written under a
   * temporary name with its mode, not synced and not renamed. {@link #syncAll} then makes every staged
   * file durable in one call, and {@link #commit} renames each over its name.
   */
  WriteOutcome stageFile(WorkspacePath path, byte[] content, int mode, Optional<String> temporaryName);

  /** As {@link #stageFile(WorkspacePath, byte[], int, Optional)}, streaming the content from {@code content}. */
  WriteOutcome stageFile(WorkspacePath path, InputStream content, int mode, Optional<String> temporaryName);

  WriteOutcome stageSymlink(WorkspacePath path, byte[] target, Optional<String> temporaryName);

  /** Renames a staged file over its name, its parent walked again from the root without following links. */
  WriteOutcome commit(WriteOutcome.Staged staged);

  /**
   * Removes a staged file that will not be committed, wherever this implementation stages it (also a file a
   * process killed mid-write left under that name).
   */
  void discard(WriteOutcome.Staged staged);

  /** Removes a name without syncing its directory ({@link #syncAll} does, for many at once). */
  WriteOutcome deleteUnsynced(WorkspacePath path);

  /** Makes everything written to the workspace's file system durable. */
  WriteOutcome syncAll();

  /**
   * Creates the directory {@code path} (missing parents too, with the default mode) in its parent held open
   * from the root, nothing followed; with {@code mode}, exactly those permission bits (the umask does not
   * apply). A directory already there is left as it is.
   */
  DirectoryOutcome makeDirectory(WorkspacePath path, java.util.OptionalInt mode);

  /** Removes the directory {@code path} if it is empty ({@code unlinkat} with {@code AT_REMOVEDIR}). */
  DirectoryOutcome removeDirectory(WorkspacePath path);

  /**
   * Sets the permission bits of the directory {@code path} to {@code to} if they are {@code from} now: the
   * directory itself is opened beneath the root with nothing followed, and its bits are read and set through
   * that descriptor ({@code fstat}, {@code fchmod}), never through a name.
   */
  DirectoryOutcome changeDirectoryMode(WorkspacePath path, int from, int to);

  /** The names in a directory ({@code empty} for the root) with their {@code lstat}, nothing followed. */
  DirectoryListing list(Optional<WorkspacePath> directory);

  @Override
  void close();
}
