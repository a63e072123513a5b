package io.turndiff.boundary;

import io.turndiff.model.RequestException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Which directories may be workspace roots: the one check at the edge where a root is accepted (a
 * new turn, tracking, and every reopening of a stored workspace).
 *
 * <p>Never a root: the empty name (it would mean the service's own working directory), the file
 * system root {@code /} (a snapshot of {@code etc/shadow} would then be "inside"), and a directory
 * on a pseudo file system ({@code /proc}, {@code /sys}, {@code /dev}, cgroups, ...), whose "files"
 * are the kernel's and the processes' state. Optionally, roots must lie within a list of allowed
 * directories; the decision is made on the real path of the directory that was opened, so a symlink
 * into an allowed directory does not carry a root out.
 */
public final class WorkspacePolicy {

  /**
   * File system types (as {@code /proc/mounts} names them, and {@link FileSystemMagic} for their
   * {@code statfs} numbers) that hold no user files.
   */
  private static final Set<String> PSEUDO_FILE_SYSTEMS =
      Set.of(
          "proc",
          "sysfs",
          "devtmpfs",
          "devpts",
          "devfs",
          "cgroup",
          "cgroup2",
          "securityfs",
          "debugfs",
          "tracefs",
          "pstore",
          "bpf",
          "configfs",
          "fusectl",
          "efivarfs",
          "selinuxfs",
          "mqueue",
          "binfmt_misc",
          "hugetlbfs",
          "rpc_pipefs",
          "nsfs");

  private final Optional<List<Path>> allowed;

  private WorkspacePolicy(Optional<List<Path>> allowed) {
    this.allowed = allowed;
  }

  /** Any directory that is not refused for what it is. */
  public static WorkspacePolicy anyDirectory() {
    return new WorkspacePolicy(Optional.empty());
  }

  /**
   * Only directories within one of {@code directories} (each resolved to its real path now).
   *
   * @throws IllegalArgumentException naming a directory that does not exist or is not a directory
   */
  public static WorkspacePolicy within(List<Path> directories) {
    List<Path> real = new ArrayList<>();
    for (Path directory : directories) {
      try {
        Path resolved = directory.toRealPath();
        if (!Files.isDirectory(resolved)) {
          throw new IllegalArgumentException(
              "allowed workspace directory " + directory + " is not a directory");
        }
        real.add(resolved);
      } catch (IOException e) {
        throw new IllegalArgumentException(
            "allowed workspace directory " + directory + " cannot be resolved: " + e.getMessage());
      }
    }
    return new WorkspacePolicy(Optional.of(List.copyOf(real)));
  }

  /** The directories roots must lie within, when restricted. */
  public Optional<List<Path>> allowed() {
    return allowed;
  }

  /**
   * A workspace root as a client wrote it (a JSON string, a query parameter).
   *
   * @throws RequestException ({@code BAD_INPUT}) naming it when it is empty or holds a NUL
   */
  public static Path parse(String given) {
    if (given.isEmpty()) {
      throw new RequestException(
          RequestException.Problem.BAD_INPUT, "workspace '' is empty: name a directory");
    }
    if (given.indexOf('\0') >= 0) {
      throw new RequestException(
          RequestException.Problem.BAD_INPUT,
          "workspace '" + given.replace("\0", "\\0") + "' contains a NUL byte");
    }
    try {
      return Path.of(given);
    } catch (InvalidPathException e) {
      throw new RequestException(
          RequestException.Problem.BAD_INPUT,
          "workspace '" + given + "' is not a path: " + e.getReason());
    }
  }

  /**
   * Refuses the empty name before anything is opened ({@code Path.of("")} is the working
   * directory).
   */
  public static void requireNamed(Path given) {
    if (given.toString().isEmpty()) {
      throw new RequestException(
          RequestException.Problem.BAD_INPUT, "workspace '' is empty: name a directory");
    }
  }

  /**
   * Checks a root just opened: not {@code /}, not on a pseudo file system, within the allowed
   * directories, and its real path still naming the directory held open (so the checks were made on
   * that directory).
   *
   * @throws RequestException {@code BAD_INPUT} for a directory that can never be a root, {@code
   *     FORBIDDEN} for one outside the allowed directories, {@code WORKSPACE} when it moved while
   *     being checked
   */
  public void admit(WorkspaceBoundary opened) {
    Path real = opened.rootReal();
    if (real.getParent() == null) {
      throw new RequestException(
          RequestException.Problem.BAD_INPUT,
          "workspace "
              + opened.rootGiven()
              + " is the file system root "
              + real
              + ": name a project directory");
    }
    String type = fileSystemType(opened);
    if (PSEUDO_FILE_SYSTEMS.contains(type)) {
      throw new RequestException(
          RequestException.Problem.BAD_INPUT,
          "workspace "
              + opened.rootGiven()
              + " ("
              + real
              + ") is on the pseudo file system '"
              + type
              + "', which holds no project files");
    }
    requireAllowed(real, opened.rootGiven());
    if (!RootAtPath.stillNames(opened)) {
      throw new RequestException(
          RequestException.Problem.WORKSPACE,
          "workspace " + opened.rootGiven() + " changed while it was being opened: try again");
    }
  }

  /**
   * The type of file system the root opened is on: asked of its descriptor ({@code fstatfs}), or,
   * where the handle cannot tell (a directory stream has no descriptor; the call failed), read from
   * the mount table as the JDK's {@code FileStore} does, which names the hidden mount where two are
   * stacked at one point.
   */
  private static String fileSystemType(WorkspaceBoundary opened) {
    Optional<String> asked = opened.rootFileSystemType();
    if (asked.isPresent()) {
      return asked.get();
    }
    Path real = opened.rootReal();
    try {
      return Files.getFileStore(real).type();
    } catch (IOException e) {
      throw new RequestException(
          RequestException.Problem.WORKSPACE,
          "workspace "
              + opened.rootGiven()
              + ": cannot tell which file system "
              + real
              + " is on: "
              + e.getMessage());
    }
  }

  /**
   * Checks a workspace a query names (a store-only query may name one that is gone): its real path
   * when it still exists, else its absolute path, must be within the allowed directories.
   */
  public void admitNamed(Path workspace) {
    if (allowed.isEmpty()) {
      return;
    }
    requireAllowed(namedReal(workspace), workspace);
  }

  /**
   * Whether {@link #admitNamed} admits {@code workspace}: for a listing, which leaves out what it
   * would refuse instead of failing.
   */
  public boolean admitsNamed(Path workspace) {
    return allowed.isEmpty() || allowed.get().stream().anyMatch(namedReal(workspace)::startsWith);
  }

  private static Path namedReal(Path workspace) {
    Path absolute = workspace.toAbsolutePath().normalize();
    try {
      return absolute.toRealPath();
    } catch (IOException gone) {
      return absolute;
    }
  }

  private void requireAllowed(Path real, Path given) {
    if (allowed.isPresent() && allowed.get().stream().noneMatch(real::startsWith)) {
      throw new RequestException(
          RequestException.Problem.FORBIDDEN,
          "workspace "
              + given
              + (real.equals(given) ? "" : " (" + real + ")")
              + " is outside the directories this service may work in");
    }
  }
}
