package io.turndiff.rewind;

import io.turndiff.diff.Rename;
import io.turndiff.model.BadPathException;
import io.turndiff.model.PathInput;
import io.turndiff.model.PathParser;
import io.turndiff.model.RequestException;
import io.turndiff.model.RequestedPath;
import io.turndiff.model.RootNames;
import io.turndiff.model.WorkspacePath;
import io.turndiff.store.StoredWorkspace;
import java.util.List;
import java.util.TreeSet;

/**
 * The paths a rewind was asked for ({@code turndiff rewind --turn T PATH…}), relative to the
 * workspace: the rewind puts back only what its turns recorded at or under them. None means every
 * path the turns recorded.
 */
final class NamedPaths {

  static final NamedPaths EVERY = new NamedPaths(List.of());

  private final List<WorkspacePath> paths;

  /** Every path when {@code paths} is empty; else these. */
  private final boolean every;

  NamedPaths(List<WorkspacePath> paths) {
    this(paths, paths.isEmpty());
  }

  private NamedPaths(List<WorkspacePath> paths, boolean every) {
    for (WorkspacePath path : paths) {
      if (path.isOutside() || path.length() == 0) {
        throw new IllegalArgumentException("not a path inside the workspace: " + path);
      }
    }
    this.paths = List.copyOf(new TreeSet<>(paths));
    this.every = every;
  }

  /**
   * Exactly the paths a plan selected (those inside the workspace; none selects nothing): the
   * directories a rewind to before a tool call acts on.
   */
  static NamedPaths selected(List<WorkspacePath> paths) {
    return new NamedPaths(
        paths.stream().filter(path -> !path.isOutside() && path.length() > 0).toList(), false);
  }

  /**
   * Parses {@code inputs} with the one {@link PathParser}, against the roots the store recorded for
   * {@code workspace} (the file system is not asked): a path outside the workspace, with a {@code
   * .} or {@code ..} component, or naming the workspace itself is refused, naming it. A directory
   * may be given with a trailing {@code /}.
   */
  static NamedPaths parse(StoredWorkspace workspace, List<PathInput> inputs) {
    if (inputs.isEmpty()) {
      return EVERY;
    }
    PathParser parser =
        PathParser.beneath(RootNames.of(workspace.rootReal(), workspace.rootGiven()));
    TreeSet<WorkspacePath> parsed = new TreeSet<>();
    for (PathInput given : inputs) {
      PathInput input = withoutTrailingSlash(given);
      RequestedPath path;
      try {
        path = parser.parse(input);
      } catch (BadPathException e) {
        throw new RequestException(RequestException.Problem.BAD_INPUT, e.getMessage());
      }
      String shown = "path '" + input.given().display() + "' ";
      switch (path) {
        case RequestedPath.Outside outside ->
            throw new RequestException(
                RequestException.Problem.BAD_INPUT,
                shown + "is outside the workspace: a rewind puts back only paths inside it");
        case RequestedPath.Inside inside when !inside.plain() ->
            throw new RequestException(
                RequestException.Problem.BAD_INPUT,
                shown
                    + "has a '.' or '..' component: name it as it is under the workspace"
                    + " (a rewind does not resolve names)");
        case RequestedPath.Inside inside -> parsed.add(inside.lexicalKey());
      }
    }
    return new NamedPaths(List.copyOf(parsed));
  }

  /**
   * These paths and the old name of every rename of {@code renames} whose new name they select: a
   * rename is one change, so rewinding the new name brings the old one back (and the plan lists
   * both: the old path restored, the new one removed). Every path stays every path.
   */
  NamedPaths withOldNamesOf(List<Rename> renames) {
    if (every) {
      return this;
    }
    TreeSet<WorkspacePath> widened = new TreeSet<>(paths);
    renames.stream().filter(rename -> selects(rename.to())).map(Rename::from).forEach(widened::add);
    return widened.size() == paths.size() ? this : new NamedPaths(List.copyOf(widened));
  }

  /** {@code src/} as {@code src}: a directory's name (the parser takes names of files). */
  private static PathInput withoutTrailingSlash(PathInput input) {
    if (input instanceof PathInput.Text(String text) && text.length() > 1 && text.endsWith("/")) {
      String trimmed = text.replaceAll("/+$", "");
      return trimmed.isEmpty() ? input : PathInput.text(trimmed);
    }
    return input;
  }

  /** Every path of the turns, when none was named. */
  boolean every() {
    return every;
  }

  /** The named paths, in path order, without repeats. */
  List<WorkspacePath> paths() {
    return paths;
  }

  /** Whether {@code path} is one of the named paths or lies under one. */
  boolean selects(WorkspacePath path) {
    return every() || paths.stream().anyMatch(path::isWithin);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof NamedPaths other && paths.equals(other.paths);
  }

  @Override
  public int hashCode() {
    return paths.hashCode() * 31 + Boolean.hashCode(every);
  }

  @Override
  public String toString() {
    return paths.toString();
  }
}
