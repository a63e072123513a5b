package io.turndiff.boundary;

import io.turndiff.model.BoundaryKind;
import io.turndiff.model.WorkspacePath;
import java.util.Optional;

/** The workspace root held open: a directory handle, and what only the root knows. */
interface RootHandle extends DirectoryHandle {

  BoundaryKind kind();

  /**
   * Device and inode of the root, the device numbered as {@code statx} does ({@link DeviceNumber}).
   */
  StatInfo rootStat();

  /**
   * The type of file system the root is on, asked of the root's own descriptor: the name {@code
   * /proc/mounts} gives it for the pseudo file systems and tmpfs ({@link FileSystemMagic}), the
   * magic number for any other; empty where this handle cannot ask (then the caller reads the mount
   * table).
   */
  Optional<String> fileSystemType();

  /**
   * Opens the file at {@code path} for reading in one kernel call that resolves the whole path
   * beneath the root, nothing followed; empty where the kernel cannot (then the {@link Walker}
   * walks to its parent).
   */
  Optional<Attempt<OpenedFile>> openBeneath(WorkspacePath path);

  /** As {@link #openBeneath}, for a directory. */
  Optional<Attempt<DirectoryHandle>> openDirectoryBeneath(WorkspacePath directory);

  /**
   * Removes what this handle stages outside the target's directory under {@code temporary}, if
   * anything.
   */
  void removeLeftover(Name temporary);

  /** Closes the root itself (once, when no operation uses it: see {@link Walker#close()}). */
  void closeRoot();
}
