package io.turndiff.boundary;

import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The directories one {@link TreeWalk} keeps open so that each subdirectory is opened in its parent
 * by one name, not resolved again from the root: resolving from the root costs a lookup per level
 * (in the kernel with {@code openat2}, and past {@code PATH_MAX}, 4,096 bytes, one {@code openat}
 * and {@code close} per level), so a whole walk of a chain N deep cost O(N²); opened in the parent
 * it costs O(N).
 *
 * <p>A kept directory is shared: the walk holds it until it has handed it to every subdirectory it
 * enters, each of those listings holds it until it has opened its own, and the last to let go
 * closes it. At most {@link #MAX_KEPT} are kept at once, whatever the tree's shape: a listing done
 * ahead of the walk (the listers run ahead) keeps its directory only while there is room, and a
 * subdirectory of a directory that was not kept is opened from the root, as every directory was
 * before. A chain of any depth keeps two or three (the directory being listed and its parent); a
 * wide tree fills the room with siblings listed ahead, and only a tree both wide and deep resolves
 * some directories from the root again.
 */
final class KeptDirectories {

  /**
   * File descriptors a walk may keep besides the listers' own: far below the 1,024 a process is
   * given by default, and enough that a walk rarely meets the bound (a chain needs three).
   */
  static final int MAX_KEPT = 64;

  private final Semaphore room = new Semaphore(MAX_KEPT);
  private final Set<Kept> open = ConcurrentHashMap.newKeySet();

  /** One directory kept open, and how many still need it. */
  final class Kept {
    private final DirectoryHandle directory;
    private final boolean inRoom;
    private final AtomicInteger users = new AtomicInteger(1);

    private Kept(DirectoryHandle directory, boolean inRoom) {
      this.directory = directory;
      this.inRoom = inRoom;
    }

    DirectoryHandle directory() {
      return directory;
    }

    private void close() {
      directory.close();
      if (inRoom) {
        room.release();
      }
    }

    /** One more user (a subdirectory's listing), which will {@link #release()} it. */
    Kept share() {
      users.incrementAndGet();
      return this;
    }

    /** One user done with it; the last one closes it and gives its room back. */
    void release() {
      if (users.decrementAndGet() == 0 && open.remove(this)) {
        close();
      }
    }
  }

  /**
   * Keeps {@code directory} open for its subdirectories, held once by the caller; empty (and the
   * directory closed) when the walk already keeps as many as it may.
   */
  Optional<Kept> keep(DirectoryHandle directory) {
    if (!room.tryAcquire()) {
      directory.close();
      return Optional.empty();
    }
    Kept kept = new Kept(directory, true);
    open.add(kept);
    return Optional.of(kept);
  }

  /**
   * Keeps {@code directory} open outside the room: the one directory a re-scan's descent holds
   * ({@link DescentToStarts}) between the walks of its starts, so that the walk may keep one more
   * than {@link #MAX_KEPT} at most.
   */
  Kept keepOutsideRoom(DirectoryHandle directory) {
    Kept kept = new Kept(directory, false);
    open.add(kept);
    return kept;
  }

  /**
   * Closes what is still kept, once the walk and its listers have stopped: after a walk cut short
   * (a visitor's exception, an interrupt), listings never reached still held their directories.
   */
  void closeAll() {
    for (Kept kept : open) {
      if (open.remove(kept)) {
        kept.close();
      }
    }
  }
}
