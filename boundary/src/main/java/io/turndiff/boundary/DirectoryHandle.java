package io.turndiff.boundary;

import java.util.List;

/**
 * A directory held open beneath the workspace root. Every operation names one {@link Name} relative
 * to it and follows nothing: a symlink is refused or acted on as a name, never resolved. This is
 * all that differs between the kernel paths ({@link FdHandle}, {@link StreamHandle}); the walk to a
 * directory, the read pipeline and the write protocol are written once above it ({@link Walker},
 * {@link FileReader}, {@link WriteProtocol}).
 */
interface DirectoryHandle extends AutoCloseable {

  /** The directory {@code name} in this one, on the root's mount, nothing followed. */
  Attempt<DirectoryHandle> openDirectory(Name name);

  /**
   * A new directory with {@code mode} (the umask applies); {@link HandleFailure.Exists} when the
   * name is taken.
   */
  Attempt<Void> makeDirectory(Name name, int mode);

  /** The stat of the entry itself (a symlink is described, not followed). */
  Attempt<StatInfo> lstat(Name name);

  /**
   * The stat of what the entry finally leads to, links followed by the kernel: metadata only,
   * nothing opened.
   */
  Attempt<StatInfo> statFollowing(Name name);

  /** The text of the symlink {@code name}. */
  Attempt<byte[]> readLink(Name name);

  /** Opens the entry for reading without following it and without blocking on a special file. */
  Attempt<OpenedFile> openForRead(Name name);

  /**
   * A new, empty file under a name nobody holds ({@link HandleFailure.Exists} otherwise), mode
   * 0600.
   */
  Attempt<NewFile> createExclusive(Name name);

  /**
   * A new symlink with {@code target} as its text; {@link HandleFailure.Exists} when the name is
   * taken.
   */
  Attempt<Void> symlink(Name name, byte[] target);

  /** Renames {@code from} over {@code to}, both in this directory. */
  Attempt<Void> rename(Name from, Name to);

  /** Removes the name (never a directory). */
  Attempt<Void> unlink(Name name);

  /** Removes the directory {@code name} when it is empty. */
  Attempt<Void> removeDirectory(Name name);

  /**
   * Makes this directory's entries durable ({@code fsync}); done without effect where it cannot be.
   */
  Attempt<Void> sync();

  /**
   * Makes everything written on the file system that holds this directory durable, at once ({@code
   * syncfs}): the end of a batch of writes that were not synced one by one. Refused where the
   * handle cannot.
   */
  Attempt<Void> syncFileSystem();

  /** The names here with their {@code lstat} and, for a symlink, its text. */
  Attempt<List<DirectoryListing.Entry>> list();

  /** This directory's own stat. */
  Attempt<StatInfo> stat();

  /** Sets this directory's own permission bits, through the handle, never through a name. */
  Attempt<Void> chmod(int mode);

  /** Releases the handle; the root's handle stays open until {@link RootHandle#closeRoot()}. */
  @Override
  void close();
}
