package io.turndiff.hooks.install;

import io.turndiff.api.CliException;
import io.turndiff.api.ExitCode;
import io.turndiff.boundary.BoundaryException;
import io.turndiff.boundary.DirectoryOutcome;
import io.turndiff.boundary.Observation;
import io.turndiff.boundary.WorkspaceBoundary;
import io.turndiff.boundary.WriteOutcome;
import io.turndiff.model.BadPathException;
import io.turndiff.model.DirectoryState;
import io.turndiff.model.Reason;
import io.turndiff.model.RequestException;
import io.turndiff.model.RequestedPath;
import io.turndiff.model.Snapshot;
import io.turndiff.model.WorkspacePath;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The runtimes' settings files inside one workspace ({@code .claude/settings.local.json}, {@code
 * .gemini/settings.json}, {@code .codex/hooks.json}, {@code .opencode/plugins/turndiff.ts}), read
 * and written only through the workspace's boundary, as every workspace file is: a repository
 * decides what its settings paths are, so they are hostile input.
 *
 * <p>A symbolic link on the way that leads out of the workspace — the file itself ({@code
 * settings.local.json -> ~/elsewhere.json}), a directory above it ({@code .gemini -> ~/.gemini}) —
 * is refused, naming the link, when the file is read, which every command does before it writes
 * anything. A link that stays inside is followed as the boundary follows it for a snapshot: the
 * write goes to the file it reaches, and the link stays a link. A file that is not a plain regular
 * file of one name (a hard link, a FIFO, a directory) is refused. A write is the boundary's checked
 * sequence: the new content staged beside the file, renamed over it only if the name still holds
 * what was read (through the same parent, held open from the root, with nothing followed), the
 * directory synced; so a name swapped for a link in between is never written through.
 */
final class WorkspaceSettings implements AutoCloseable {

  private final Path workspace;
  private final WorkspaceBoundary boundary;
  // what each file held when it was read: the state its write or delete expects to replace
  private final Map<Path, Snapshot> seen = new HashMap<>();

  private WorkspaceSettings(Path workspace, WorkspaceBoundary boundary) {
    this.workspace = workspace;
    this.boundary = boundary;
  }

  /** The settings of {@code workspace} (absolute, normalized: as {@code --workspace} names it). */
  static WorkspaceSettings open(Path workspace) {
    try {
      return new WorkspaceSettings(workspace, WorkspaceBoundary.open(workspace));
    } catch (BoundaryException e) {
      throw new CliException(ExitCode.USAGE, e.getMessage());
    }
  }

  /** Whether {@code file} names a path in this workspace. */
  boolean holds(Path file) {
    Path normalized = file.toAbsolutePath().normalize();
    return normalized.startsWith(workspace) || normalized.startsWith(boundary.rootReal());
  }

  /** The file, resolved and looked at through the boundary: what it holds, where it leads. */
  private record Found(Snapshot snapshot, Optional<byte[]> content) {}

  private Found find(Path file) {
    RequestedPath request;
    try {
      request = boundary.parse(file.toString());
    } catch (BadPathException e) {
      throw refused(file, e.getMessage());
    }
    if (!(request instanceof RequestedPath.Inside)) {
      throw refused(file, "it is not inside the workspace " + workspace);
    }
    Observation reached = boundary.observe(request).getLast();
    Snapshot snapshot = reached.snapshot();
    return switch (snapshot) {
      case Snapshot.Absent absent -> new Found(absent, Optional.empty());
      case Snapshot.RegularFile regular -> new Found(regular, reached.content());
      case Snapshot.MetadataOnly only when only.why() == Reason.ESCAPES_WORKSPACE ->
          throw refused(
              file,
              only.reasonDetail()
                  + " (turndiff writes a workspace's settings only inside the workspace; put a"
                  + " file there, or install with --user)");
      case Snapshot.MetadataOnly only ->
          throw refused(file, only.why().code().replace('_', ' ') + ": " + only.reasonDetail());
      case Snapshot.Directory directory -> throw refused(file, "it is a directory");
      case Snapshot.Symlink link -> throw refused(file, "it is a symbolic link to a directory");
    };
  }

  /** The file's bytes, or empty when there is none; refused when it cannot be a settings file. */
  Optional<byte[]> read(Path file) {
    Found found = find(file);
    seen.put(file, found.snapshot());
    return found.content();
  }

  /**
   * The file a write of {@code file} replaces when a symbolic link inside the workspace leads to
   * it, to name it to the user; empty when {@code file} is that file.
   */
  Optional<Path> linkedTarget(Path file) {
    WorkspacePath reached = expected(file).path();
    Path target = workspace.resolve(reached.display());
    return target.equals(file.toAbsolutePath().normalize())
        ? Optional.empty()
        : Optional.of(target);
  }

  /**
   * Writes {@code bytes} as {@code file} (to the file an inside link leads to, mode kept; a new one
   * gets {@code modeIfNew}, its missing directories the default mode); returns the directories it
   * made, outermost first.
   */
  List<Path> write(Path file, byte[] bytes, int modeIfNew) {
    Snapshot expected = expected(file);
    WorkspacePath path = expected.path();
    List<Path> made = makeDirectoriesAbove(file, path);
    int mode = expected instanceof Snapshot.RegularFile regular ? regular.stat().mode() : modeIfNew;
    WriteOutcome staged = boundary.stageFile(path, bytes, mode, Optional.empty());
    if (!(staged instanceof WriteOutcome.Staged ready)) {
      throw notWritten(file, staged);
    }
    WriteOutcome committed = boundary.commitIfUnchanged(ready, expected);
    if (!committed.done()) {
      throw notWritten(file, committed);
    }
    boundary.syncDirectory(path.parent());
    seen.remove(file);
    return made;
  }

  /** Removes {@code file}, if it still holds what was read. */
  void delete(Path file) {
    Snapshot expected = expected(file);
    WriteOutcome deleted = boundary.deleteIfUnchanged(expected.path(), expected);
    if (!deleted.done()) {
      throw notWritten(file, deleted);
    }
    boundary.syncDirectory(expected.path().parent());
    seen.remove(file);
  }

  /** Removes those of {@code directories} (outermost first) that are empty, innermost first. */
  void removeEmptyDirectories(List<Path> directories) {
    for (Path directory : directories.reversed()) {
      WorkspacePath path = relative(directory);
      DirectoryOutcome removed = boundary.removeDirectory(path);
      if (!(removed instanceof DirectoryOutcome.Done)
          && !(removed instanceof DirectoryOutcome.AlreadySo)) {
        // not empty, or something else is there now: it and everything above it stay
        return;
      }
      boundary.syncDirectory(path.parent());
    }
  }

  private Snapshot expected(Path file) {
    Snapshot snapshot = seen.get(file);
    if (snapshot == null) {
      read(file);
      snapshot = seen.get(file);
    }
    return snapshot;
  }

  /** Makes each missing directory above {@code path}, outermost first; returns those it made. */
  private List<Path> makeDirectoriesAbove(Path file, WorkspacePath path) {
    List<WorkspacePath> missing = new ArrayList<>();
    for (Optional<WorkspacePath> at = path.parent(); at.isPresent(); at = at.get().parent()) {
      Optional<DirectoryState> state = boundary.directoryAt(at.get());
      if (state.isEmpty()) {
        throw refused(file, at.get().display() + " is there and is not a directory");
      }
      if (state.get().present()) {
        break;
      }
      missing.addFirst(at.get());
    }
    List<Path> made = new ArrayList<>();
    for (WorkspacePath directory : missing) {
      DirectoryOutcome outcome = boundary.makeDirectory(directory, OptionalInt.empty());
      if (outcome instanceof DirectoryOutcome.Refused why) {
        throw refused(file, "cannot create " + directory.display() + ": " + why.reason());
      }
      if (outcome instanceof DirectoryOutcome.Done) {
        made.add(workspace.resolve(directory.display()));
      }
    }
    return made;
  }

  private WorkspacePath relative(Path inside) {
    Path normalized = inside.toAbsolutePath().normalize();
    Path root = normalized.startsWith(workspace) ? workspace : boundary.rootReal();
    return WorkspacePath.of(root.relativize(normalized).toString());
  }

  /** Bad input (exit 2): {@code file} is not one turndiff may read or write. */
  private static RequestException refused(Path file, String why) {
    return new RequestException(
        RequestException.Problem.BAD_INPUT,
        "refusing " + file + ": " + why + "; nothing was written");
  }

  private static CliException notWritten(Path file, WriteOutcome outcome) {
    String why =
        switch (outcome) {
          case WriteOutcome.Refused refused -> refused.reason();
          case WriteOutcome.Changed changed ->
              "it changed since turndiff read it (run the command again)";
          default -> "the write did not happen (" + outcome + ")";
        };
    return new CliException(ExitCode.ERROR, "cannot write " + file + ": " + why);
  }

  @Override
  public void close() {
    boundary.close();
  }
}
