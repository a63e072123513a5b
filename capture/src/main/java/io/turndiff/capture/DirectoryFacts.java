package io.turndiff.capture;

import io.turndiff.boundary.WorkspaceBoundary;
import io.turndiff.capture.record.DirectorySide;
import io.turndiff.model.DirectoryState;
import io.turndiff.model.WorkspacePath;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The directories above recorded paths, as they are now: which exist (with their mode) and which do
 * not, so that a rewind can remove the directories a turn created and re-create, with their mode,
 * the ones it removed. Each directory is looked at once (through the boundary, nothing followed);
 * below an absent one every directory is absent without a look.
 */
public final class DirectoryFacts {

  private final WorkspaceBoundary boundary;
  private final Map<WorkspacePath, DirectoryState> recorded;
  private final Map<WorkspacePath, Optional<DirectoryState>> seen = new HashMap<>();

  public DirectoryFacts(WorkspaceBoundary boundary) {
    this(boundary, Map.of());
  }

  /**
   * @param recorded states a turn already recorded: they stand (the first record wins) and are not
   *     looked at again
   */
  public DirectoryFacts(WorkspaceBoundary boundary, Map<WorkspacePath, DirectoryState> recorded) {
    this.boundary = boundary;
    this.recorded = recorded;
  }

  /**
   * The directories above each path, from the root down, each once; a directory not known ends its
   * chain.
   */
  public List<DirectoryState> above(Collection<WorkspacePath> paths) {
    Map<WorkspacePath, DirectoryState> states = new LinkedHashMap<>();
    for (WorkspacePath path : paths) {
      above(path).forEach(state -> states.putIfAbsent(state.path(), state));
    }
    return new ArrayList<>(states.values());
  }

  /**
   * As {@link #above(Collection)}, and each of {@code directories} itself, when it is a directory:
   * a directory a snapshot named (a tool about to {@code chmod} it) is recorded with its mode like
   * the ones above recorded paths, so that a rewind puts its mode back.
   */
  public List<DirectoryState> aboveAndAt(
      Collection<WorkspacePath> paths, Collection<WorkspacePath> directories) {
    Map<WorkspacePath, DirectoryState> states = new LinkedHashMap<>();
    above(paths).forEach(state -> states.putIfAbsent(state.path(), state));
    for (WorkspacePath directory : directories) {
      if (!directory.isOutside()) {
        known(directory)
            .filter(DirectoryState::present)
            .ifPresent(state -> states.putIfAbsent(directory, state));
      }
    }
    return new ArrayList<>(states.values());
  }

  /**
   * A directory's state as the turn recorded it, else as it is now (looked at once): a file or a
   * link where a directory above a path would be is an absent directory (a tool that makes the path
   * replaces it by one, which the turn then created), and every directory below it absent too.
   */
  private Optional<DirectoryState> known(WorkspacePath directory) {
    return Optional.ofNullable(recorded.get(directory))
        .or(() -> seen.computeIfAbsent(directory, path -> DirectorySide.now(boundary, path)));
  }

  public List<DirectoryState> above(WorkspacePath path) {
    List<DirectoryState> states = new ArrayList<>();
    if (path.isOutside()) {
      return states;
    }
    List<byte[]> parents = path.parentComponents();
    boolean absent = false;
    for (int depth = 1; depth <= parents.size(); depth++) {
      WorkspacePath directory = WorkspacePath.ofComponents(parents.subList(0, depth));
      Optional<DirectoryState> state =
          absent ? Optional.of(DirectoryState.absent(directory)) : known(directory);
      if (state.isEmpty()) {
        break;
      }
      absent = !state.get().present();
      states.add(state.get());
    }
    return states;
  }
}
