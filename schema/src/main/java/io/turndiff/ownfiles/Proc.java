package io.turndiff.ownfiles;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * What turndiff reads of {@code /proc}: whether there is one, a process's {@code stat} line, the
 * kernel's limit on inotify watches, this boot's id, and the user this process runs as; and, to
 * find the runtimes' processes, the processes there are, whose each is, its command line, its
 * executable's and its working directory's names. Each is one read, by name, of a file the kernel
 * makes, or a {@code readlink} of one of its links (never followed: the name a link holds is read,
 * nothing it names is opened); nothing is written.
 */
public final class Proc {

  private static final Path PROC = Path.of("/proc");

  private Proc() {}

  /** Whether this system has {@code /proc} (Linux): {@code /proc/self} is a directory. */
  public static boolean mounted() {
    return Files.isDirectory(PROC.resolve("self"));
  }

  /** The text of {@code /proc/PID/stat}; empty when the process is gone or there is no /proc. */
  public static Optional<String> stat(long pid) {
    try {
      return Optional.of(Files.readString(PROC.resolve(pid + "/stat"), StandardCharsets.UTF_8));
    } catch (IOException | RuntimeException gone) {
      return Optional.empty();
    }
  }

  /**
   * When process {@code pid} started, in clock ticks since boot (field 22 of its {@code stat}):
   * with its pid, it names the process even after the pid is reused. Empty when no process has the
   * pid, when there is no {@code /proc}, and for a process that has exited but was not reaped yet
   * (a zombie: a daemon's parent is gone, and not every init reaps), which has ended as far as
   * anyone waiting for it is concerned.
   */
  public static OptionalLong startTicks(long pid) {
    Optional<String> read = stat(pid);
    if (read.isEmpty()) {
      return OptionalLong.empty();
    }
    String line = read.get();
    // the command name (field 2) is in parentheses and may hold spaces and ')': fields after the
    // last ')'; fields[0] is field 3 (the state), so field 22 is fields[19]
    String[] fields = line.substring(line.lastIndexOf(')') + 2).split(" ");
    if (fields.length < 20 || fields[0].equals("Z") || fields[0].equals("X")) {
      return OptionalLong.empty();
    }
    try {
      return OptionalLong.of(Long.parseLong(fields[19]));
    } catch (NumberFormatException malformed) {
      return OptionalLong.empty();
    }
  }

  /**
   * {@code fs.inotify.max_user_watches}: how many directories one user's processes may watch in all
   * (the watcher of tracked workspaces takes one per directory); empty without {@code /proc}.
   */
  public static OptionalLong inotifyWatchLimit() {
    try {
      // read as lines: Files.readString of this sysctl file (whose stat size is 0) returned "1"
      // for 192530 on the JDK 25 and kernel 6.18 here; a buffered read gets the whole line
      return OptionalLong.of(
          Long.parseLong(
              Files.readAllLines(
                      PROC.resolve("sys/fs/inotify/max_user_watches"), StandardCharsets.US_ASCII)
                  .getFirst()
                  .strip()));
    } catch (IOException | RuntimeException unknown) {
      return OptionalLong.empty();
    }
  }

  /**
   * {@code kernel.random.boot_id}: the random id the kernel draws at each boot; empty without
   * {@code /proc} or when it cannot be read. Read as lines for the reason {@link
   * #inotifyWatchLimit()} gives: a sysctl file's stat size is 0, and a read sized by it may stop
   * short, which would make every boot's id look the same.
   */
  public static Optional<String> bootId() {
    try {
      String id =
          Files.readAllLines(PROC.resolve("sys/kernel/random/boot_id"), StandardCharsets.US_ASCII)
              .getFirst()
              .strip();
      return id.isEmpty() ? Optional.empty() : Optional.of(id);
    } catch (IOException | RuntimeException unknown) {
      return Optional.empty();
    }
  }

  /** The pids {@code /proc} lists now, in no order; empty without {@code /proc}. */
  public static List<Long> pids() {
    List<Long> pids = new ArrayList<>();
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(PROC, "[0-9]*")) {
      for (Path entry : entries) {
        try {
          pids.add(Long.parseLong(entry.getFileName().toString()));
        } catch (NumberFormatException notAProcess) {
          // a name that starts with a digit but is not a number is no process
        }
      }
    } catch (IOException | RuntimeException noProc) {
      return List.of();
    }
    return pids;
  }

  /**
   * Whether process {@code pid} runs as the user this process runs as: the owner of {@code
   * /proc/PID} (the kernel gives it the process's effective uid). False when it is gone.
   */
  public static boolean ofThisUser(long pid) {
    try {
      return Files.getAttribute(
              PROC.resolve(Long.toString(pid)), "unix:uid", LinkOption.NOFOLLOW_LINKS)
          .equals(userOfThisProcess());
    } catch (IOException | RuntimeException gone) {
      return false;
    }
  }

  /**
   * The command line of process {@code pid}, its arguments as it was given them ({@code
   * /proc/PID/cmdline}, split at its NULs), the first the name it was run by; at most {@code limit}
   * bytes of it are read. Empty when it is gone, and for a kernel thread (which has none).
   */
  public static List<String> commandLine(long pid, int limit) {
    byte[] read;
    try (var in = Files.newInputStream(PROC.resolve(pid + "/cmdline"))) {
      read = in.readNBytes(limit);
    } catch (IOException | RuntimeException gone) {
      return List.of();
    }
    int end = read.length;
    while (end > 0 && read[end - 1] == 0) {
      end--;
    }
    if (end == 0) {
      return List.of();
    }
    return Arrays.asList(new String(read, 0, end, StandardCharsets.UTF_8).split("\\u0000", -1));
  }

  /**
   * The name the kernel gives process {@code pid}'s executable ({@code readlink /proc/PID/exe});
   * empty when it is gone, when it is not this user's (the link cannot be read then), or when its
   * executable was deleted or replaced since it started.
   */
  public static Optional<Path> executable(long pid) {
    return link(PROC.resolve(pid + "/exe"));
  }

  /**
   * The directory process {@code pid} works in ({@code readlink /proc/PID/cwd}: its name only, read
   * from the link, nothing in it opened); empty when it is gone, when it is not this user's, or
   * when that directory was deleted.
   */
  public static Optional<Path> workingDirectory(long pid) {
    return link(PROC.resolve(pid + "/cwd"));
  }

  /**
   * The absolute name a {@code /proc} link holds; empty when it cannot be read, and for one the
   * kernel marks {@code (deleted)}: that name no longer leads to what the process has.
   */
  private static Optional<Path> link(Path link) {
    try {
      String name = Files.readSymbolicLink(link).toString();
      return name.startsWith("/") && !name.endsWith(" (deleted)")
          ? Optional.of(Path.of(name))
          : Optional.empty();
    } catch (IOException | RuntimeException unreadable) {
      return Optional.empty();
    }
  }

  /** The uid this process runs as: the owner of {@code /proc/self} (followed). */
  static Object userOfThisProcess() throws IOException {
    return Files.getAttribute(PROC.resolve("self"), "unix:uid");
  }
}
