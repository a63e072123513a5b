package io.turndiff.capture.track;

import io.turndiff.boundary.Observation;
import io.turndiff.boundary.ScannedEntry;
import io.turndiff.boundary.WorkspaceBoundary;
import io.turndiff.model.BadPathException;
import io.turndiff.model.FileType;
import io.turndiff.model.RequestedPath;
import io.turndiff.model.WorkspacePath;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What git tracks in the work trees of one workspace: git ignores only untracked files, so a
 * committed file that {@code .gitignore} matches is tracked all the same. A work tree is any
 * directory of the workspace with a {@code .git} (the root, usually); its index is read again only
 * when the index file's stat changed.
 *
 * <p>Everything is read through the workspace boundary, as the ignore files are: a {@code .git}
 * directory inside the workspace is read; a {@code .git} file ({@code gitdir: …}, a linked worktree
 * or a submodule) is followed only to a git directory inside the workspace. A {@code .git} that is
 * a symlink, a git directory or index outside the workspace or behind a symlink, an index that is
 * hardlinked, too large or not one this reader can read: then git's index is not used, and the
 * ignore rules alone decide, as for a workspace that is not a git work tree (also when the
 * workspace is a subdirectory of a work tree: its {@code .git} is outside).
 */
final class GitIndexes {

  static final String DOT_GIT = ".git";
  private static final byte[] DOT_GIT_BYTES = DOT_GIT.getBytes(StandardCharsets.US_ASCII);
  private static final byte[] INDEX = "index".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] GITDIR = "gitdir:".getBytes(StandardCharsets.US_ASCII);

  /** A {@code .git} file holds one line; anything longer is not one. */
  private static final long MAX_GIT_FILE_BYTES = 4096;

  /** The index of a repository of a million files is about 100 MB. */
  private static final long MAX_INDEX_BYTES = 256L << 20;

  /** An index read: which file, its stat when it was read, and the paths it holds. */
  private record Read(WorkspacePath indexFile, ScannedEntry stat, TrackedByGit tracked) {}

  private final Map<Optional<WorkspacePath>, Read> byWorkTree = new ConcurrentHashMap<>();

  /**
   * What git tracks in the work tree at {@code workTree} ({@code empty}: the workspace root), whose
   * directory holds a {@code .git}; {@link TrackedByGit#NONE} when its index cannot be read from
   * inside the workspace.
   */
  TrackedByGit in(Optional<WorkspacePath> workTree, WorkspaceBoundary boundary) {
    Optional<WorkspacePath> indexFile = indexFile(workTree, boundary);
    Optional<ScannedEntry> stat =
        indexFile.flatMap(boundary::lstat).filter(entry -> entry.type() == FileType.REGULAR);
    if (stat.isEmpty()) {
      byWorkTree.remove(workTree);
      return TrackedByGit.NONE;
    }
    Read known = byWorkTree.get(workTree);
    if (known != null
        && known.indexFile().equals(indexFile.get())
        && known.stat().equals(stat.get())) {
      return known.tracked();
    }
    // the stat is taken before the read: an index replaced in between is read again next time
    Observation read = boundary.observeExact(indexFile.get(), MAX_INDEX_BYTES);
    Optional<List<byte[]>> names = read.content().flatMap(GitIndexFile::names);
    if (names.isEmpty()) {
      byWorkTree.remove(workTree);
      return TrackedByGit.NONE;
    }
    TrackedByGit tracked = TrackedByGit.of(workTree, names.get());
    byWorkTree.put(workTree, new Read(indexFile.get(), stat.get(), tracked));
    return tracked;
  }

  /**
   * Where the work tree's index is: in its {@code .git} directory, or in the git directory its
   * {@code .git} file names.
   */
  private static Optional<WorkspacePath> indexFile(
      Optional<WorkspacePath> workTree, WorkspaceBoundary boundary) {
    WorkspacePath dotGit =
        workTree
            .map(directory -> directory.child(DOT_GIT_BYTES))
            .orElseGet(() -> WorkspacePath.ofComponents(List.of(DOT_GIT_BYTES)));
    Optional<ScannedEntry> stat = boundary.lstat(dotGit);
    if (stat.isEmpty()) {
      return Optional.empty();
    }
    return switch (stat.get().type()) {
      case DIRECTORY -> Optional.of(dotGit.child(INDEX));
      case REGULAR ->
          gitDirectory(workTree, boundary.observeExact(dotGit, MAX_GIT_FILE_BYTES), boundary)
              .map(directory -> directory.child(INDEX));
      default -> Optional.empty(); // a symlinked .git is not followed
    };
  }

  /** The git directory a {@code .git} file names, when it is inside the workspace. */
  private static Optional<WorkspacePath> gitDirectory(
      Optional<WorkspacePath> workTree, Observation dotGitFile, WorkspaceBoundary boundary) {
    if (dotGitFile.content().isEmpty()) {
      return Optional.empty();
    }
    byte[] text = dotGitFile.content().get();
    if (!Arrays.equals(text, 0, Math.min(GITDIR.length, text.length), GITDIR, 0, GITDIR.length)) {
      return Optional.empty();
    }
    int from = GITDIR.length;
    int to = text.length;
    while (from < to && text[from] == ' ') {
      from++;
    }
    while (to > from && (text[to - 1] == '\n' || text[to - 1] == '\r' || text[to - 1] == '/')) {
      to--;
    }
    if (from == to) {
      return Optional.empty();
    }
    byte[] named = Arrays.copyOfRange(text, from, to);
    if (named[0] != '/' && workTree.isPresent()) {
      // relative to the directory that holds the .git file
      byte[] directory = workTree.get().bytes();
      byte[] joined = Arrays.copyOf(directory, directory.length + 1 + named.length);
      joined[directory.length] = '/';
      System.arraycopy(named, 0, joined, directory.length + 1, named.length);
      named = joined;
    }
    RequestedPath requested;
    try {
      requested = boundary.parse(named);
    } catch (BadPathException notAPath) {
      return Optional.empty();
    }
    // a git directory outside the workspace (by name, or by a .. above the root) is never read
    return requested instanceof RequestedPath.Inside inside
        ? normalized(inside.components())
        : Optional.empty();
  }

  /** {@code .} dropped, {@code ..} taken back; empty when a {@code ..} climbs above the root. */
  private static Optional<WorkspacePath> normalized(List<byte[]> components) {
    List<byte[]> kept = new ArrayList<>();
    for (byte[] component : components) {
      if (component.length == 0 || Arrays.equals(component, new byte[] {'.'})) {
        continue;
      }
      if (Arrays.equals(component, new byte[] {'.', '.'})) {
        if (kept.isEmpty()) {
          return Optional.empty();
        }
        kept.removeLast();
      } else {
        kept.add(component);
      }
    }
    if (kept.isEmpty()) {
      return Optional.empty();
    }
    try {
      return Optional.of(WorkspacePath.ofComponents(kept));
    } catch (IllegalArgumentException notAPath) {
      return Optional.empty();
    }
  }
}
