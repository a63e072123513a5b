package io.turndiff.boundary;

import io.turndiff.model.WorkspacePath;
import java.util.ArrayDeque;
import java.util.Optional;

/**
 * The directory a re-scan ({@link TreeWalk#runFrom}) has reached on its way down to the paths a
 * watch saw change, held open so that the next directory down is opened in it by its one name and
 * every name looked up there (the directory itself, the ignore files a scan asks about, the start)
 * is looked up in it by its one name. Resolving each of those from the root costs a lookup per
 * level above it (in the kernel with {@code openat2}, and past {@code PATH_MAX} one {@code openat}
 * and {@code close} per level), so going down a chain N deep cost O(N²); held, it costs O(N).
 *
 * <p>One directory is held at a time, kept in the walk's {@link KeptDirectories} (outside its room:
 * one descriptor more than its bound at most) so that a start that is a directory is listed in it
 * like any subdirectory the walk meets. Going to a directory that is not below the one held (the
 * next start, in another branch) lets it go and opens the new one from the root, as every lookup
 * did before: once per start, not once per level.
 *
 * <p>Nothing here loosens a containment rule: each directory is opened by one name in a directory
 * already opened beneath the root, refusing a symlink and another mount ({@link
 * DirectoryHandle#openDirectory}), and a name is never {@code ..} ({@link Name}).
 */
final class DescentToStarts {

  private final Lookups access;
  private final KeptDirectories kept;
  private Optional<WorkspacePath> heldPath = Optional.empty();
  private Optional<KeptDirectories.Kept> held = Optional.empty();

  DescentToStarts(Lookups access, KeptDirectories kept) {
    this.access = access;
    this.kept = kept;
  }

  /** The {@code lstat} of exactly {@code path}, in its parent reached by this descent. */
  Attempt<StatInfo> lstat(WorkspacePath path) {
    return switch (reach(path.parent())) {
      case Attempt.Done<DirectoryHandle>(DirectoryHandle parent) ->
          parent.lstat(Name.of(path.name()));
      case Attempt.Refused<DirectoryHandle>(HandleFailure why) -> Attempt.refused(why);
    };
  }

  /** The text of the symlink at {@code path}, or null when it could not be read. */
  byte[] readLink(WorkspacePath path) {
    return reach(path.parent()) instanceof Attempt.Done<DirectoryHandle>(DirectoryHandle parent)
            && parent.readLink(Name.of(path.name())) instanceof Attempt.Done<byte[]>(byte[] text)
        ? text
        : null;
  }

  /**
   * A share of {@code directory}'s handle for a listing to open a subdirectory in (released by the
   * listing), or empty when it is not held (the listing then opens from the root).
   */
  Optional<KeptDirectories.Kept> share(Optional<WorkspacePath> directory) {
    reach(directory);
    return held.isPresent() && heldPath.equals(directory)
        ? Optional.of(held.get().share())
        : Optional.empty();
  }

  /**
   * Reaches {@code directory} (the root when empty): the one held, or opened down from the one held
   * when it lies below, or else from the root.
   */
  private Attempt<DirectoryHandle> reach(Optional<WorkspacePath> directory) {
    if (held.isPresent() && heldPath.equals(directory)) {
      return Attempt.done(held.get().directory());
    }
    if (held.isEmpty() || !below(directory, heldPath)) {
      letGo();
      Attempt<DirectoryHandle> opened = access.openDirectory(directory, Optional.empty());
      if (opened instanceof Attempt.Done<DirectoryHandle>(DirectoryHandle handle)) {
        hold(directory, handle);
      }
      return opened;
    }
    ArrayDeque<WorkspacePath> down = new ArrayDeque<>();
    for (Optional<WorkspacePath> at = directory; !at.equals(heldPath); at = at.get().parent()) {
      down.push(at.get());
    }
    Attempt<DirectoryHandle> reached = Attempt.done(held.get().directory());
    for (WorkspacePath next : down) {
      reached = access.openDirectory(Optional.of(next), Optional.of(held.get().directory()));
      letGo();
      if (!(reached instanceof Attempt.Done<DirectoryHandle>(DirectoryHandle handle))) {
        return reached;
      }
      hold(Optional.of(next), handle);
    }
    return reached;
  }

  /** Whether {@code directory} lies strictly below {@code ancestor} (the root when empty). */
  private static boolean below(
      Optional<WorkspacePath> directory, Optional<WorkspacePath> ancestor) {
    if (directory.isEmpty()) {
      return false;
    }
    return ancestor.isEmpty() || directory.get().isWithin(ancestor.get());
  }

  private void hold(Optional<WorkspacePath> directory, DirectoryHandle handle) {
    held = Optional.of(kept.keepOutsideRoom(handle));
    heldPath = directory;
  }

  /** Lets the held directory go (closed once no listing shares it any more). */
  void letGo() {
    held.ifPresent(KeptDirectories.Kept::release);
    held = Optional.empty();
  }
}
