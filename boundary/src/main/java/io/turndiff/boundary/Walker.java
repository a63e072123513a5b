package io.turndiff.boundary;

import io.turndiff.model.WorkspacePath;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * The one walk from the held root to a directory, as Go's {@code os.Root} does it in {@code
 * doInRoot}: every operation on a workspace path is a closure over this walker, called with the
 * path's parent held open and the path's last {@link Name}. The walker keeps the root from being
 * closed while it runs ({@link RootInUse}), opens the parent in one kernel call where the handle
 * can ({@link RootHandle#openDirectoryBeneath}) and one component at a time otherwise, closes every
 * directory it opened, and is the only place the texts for a refused parent are written.
 */
final class Walker implements AutoCloseable {

  /** What the walk does with a missing directory on the way. */
  enum Parents {
    /** Refuses: the path's parent must exist. */
    EXISTING,
    /**
     * Creates it (default mode) in its held parent and walks on, as {@code mkdir -p} relative to
     * handles.
     */
    CREATE_MISSING
  }

  /**
   * Why the walk stopped at {@code parent} (as components from the root), and the one text that
   * says so.
   */
  record Refusal(String parent, HandleFailure why, boolean creating) {
    String text() {
      if (creating) {
        return "cannot create directory " + parent + ": " + why.describe();
      }
      return switch (why) {
        case HandleFailure.Symlink symlink ->
            "parent " + parent + " is a symlink; it is never followed";
        case HandleFailure.NotDirectory notDirectory -> "parent " + parent + " is not a directory";
        case HandleFailure.OtherMount otherMount -> "parent " + parent + " is on another mount";
        case HandleFailure.Missing missing -> "parent " + parent + " does not exist";
        default -> "parent " + parent + " cannot be opened: " + why.describe();
      };
    }
  }

  /** An operation on one name in its held parent directory. */
  @FunctionalInterface
  interface InParent<T> {
    T apply(DirectoryHandle parent, Name name);
  }

  private static final int DEFAULT_DIRECTORY_MODE = 0777;

  private final RootHandle root;
  private final RootInUse inUse = new RootInUse();

  Walker(RootHandle root) {
    this.root = root;
  }

  RootHandle root() {
    return root;
  }

  /**
   * Runs {@code op} with the root held open (for the root's own operations: a whole-path open, a
   * sync).
   */
  @SuppressWarnings("try")
  <T> T withRoot(Function<RootHandle, T> op) {
    try (RootInUse held = inUse.acquire()) {
      return op.apply(root);
    }
  }

  /**
   * Runs {@code op} in the parent of {@code path}, or {@code refused} with why the parent was not
   * reached.
   */
  @SuppressWarnings("try")
  <T> T inParent(
      WorkspacePath path, Parents parents, InParent<T> op, Function<Refusal, T> refused) {
    try (RootInUse held = inUse.acquire()) {
      Reached parent = open(path.parentComponents(), parents);
      if (parent instanceof Reached.Stopped(Refusal refusal)) {
        return refused.apply(refusal);
      }
      DirectoryHandle directory = ((Reached.Opened) parent).directory();
      try {
        return op.apply(directory, Name.of(path.name()));
      } finally {
        directory.close();
      }
    }
  }

  /**
   * Runs {@code op} in the directory {@code directory} (the root when empty), or {@code refused}.
   */
  @SuppressWarnings("try")
  <T> T inDirectory(
      Optional<WorkspacePath> directory,
      Function<DirectoryHandle, T> op,
      Function<Refusal, T> refused) {
    try (RootInUse held = inUse.acquire()) {
      Reached opened =
          open(directory.map(WorkspacePath::components).orElse(List.of()), Parents.EXISTING);
      if (opened instanceof Reached.Stopped(Refusal refusal)) {
        return refused.apply(refusal);
      }
      DirectoryHandle handle = ((Reached.Opened) opened).directory();
      try {
        return op.apply(handle);
      } finally {
        handle.close();
      }
    }
  }

  /**
   * Runs {@code op} in the directory {@code directory} (the root when empty) for a walk that keeps
   * directories open between its steps: opened in {@code parent}, the directory the walk listed it
   * in and still holds, by its last name alone (one {@code openat}, nothing followed, not a walk
   * from the root whose cost grows with the depth); from the root when the walk holds no parent.
   * The directory is left open for {@code op} to keep or close; {@code refused} gets why it could
   * not be opened.
   */
  @SuppressWarnings("try")
  <T> T inDirectoryKeptOpen(
      Optional<WorkspacePath> directory,
      Optional<DirectoryHandle> parent,
      Function<DirectoryHandle, T> op,
      Function<HandleFailure, T> refused) {
    try (RootInUse held = inUse.acquire()) {
      if (parent.isPresent() && directory.isPresent()) {
        return switch (parent.get().openDirectory(Name.of(directory.get().name()))) {
          case Attempt.Done<DirectoryHandle>(DirectoryHandle opened) -> op.apply(opened);
          case Attempt.Refused<DirectoryHandle>(HandleFailure why) -> refused.apply(why);
        };
      }
      Reached opened =
          open(directory.map(WorkspacePath::components).orElse(List.of()), Parents.EXISTING);
      if (opened instanceof Reached.Stopped(Refusal refusal)) {
        return refused.apply(refusal.why());
      }
      return op.apply(((Reached.Opened) opened).directory());
    }
  }

  /** Where a walk ended: the directory, held open, or the refusal. */
  private sealed interface Reached {
    record Opened(DirectoryHandle directory) implements Reached {}

    record Stopped(Refusal refusal) implements Reached {}
  }

  private Reached open(List<byte[]> components, Parents parents) {
    if (components.isEmpty()) {
      return new Reached.Opened(root);
    }
    // One call (openat2 beneath the root, nothing followed) reaches a parent that exists, as it
    // does for nearly every write a rewind stages: walking component by component costs an open
    // and a close per level (14 more system calls per file 7 levels deep).
    Optional<Attempt<DirectoryHandle>> whole =
        root.openDirectoryBeneath(WorkspacePath.ofComponents(components));
    if (whole.isPresent()
        && whole.get() instanceof Attempt.Done<DirectoryHandle>(DirectoryHandle directory)) {
      return new Reached.Opened(directory);
    }
    // refused in one call: walk again one component at a time, to say which component and why, and
    // to create the missing ones
    DirectoryHandle current = root;
    StringBuilder walked = new StringBuilder();
    for (byte[] component : components) {
      walked
          .append(walked.isEmpty() ? "" : "/")
          .append(new String(component, StandardCharsets.UTF_8));
      Name name = Name.of(component);
      Attempt<DirectoryHandle> next = current.openDirectory(name);
      if (parents == Parents.CREATE_MISSING
          && next instanceof Attempt.Refused<DirectoryHandle>(HandleFailure.Missing missing)) {
        Attempt<Void> made = current.makeDirectory(name, DEFAULT_DIRECTORY_MODE);
        if (made instanceof Attempt.Refused<Void>(HandleFailure why)
            && !(why instanceof HandleFailure.Exists)) {
          current.close();
          return new Reached.Stopped(new Refusal(walked.toString(), why, true));
        }
        next = current.openDirectory(name);
      }
      current.close();
      if (next instanceof Attempt.Refused<DirectoryHandle>(HandleFailure why)) {
        return new Reached.Stopped(new Refusal(walked.toString(), why, false));
      }
      current = ((Attempt.Done<DirectoryHandle>) next).value();
    }
    return new Reached.Opened(current);
  }

  /** Closes the root once no operation uses it any more; later operations fail as closed. */
  @Override
  public void close() {
    if (inUse.closeOnce()) {
      root.closeRoot();
    }
  }
}
