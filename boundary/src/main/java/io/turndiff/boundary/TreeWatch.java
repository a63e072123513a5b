package io.turndiff.boundary;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;

import io.turndiff.model.TestHook;
import io.turndiff.model.WorkspacePath;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * One inotify instance watching the directories of one workspace, so that a scan need only look at
 * the names that had an event since an earlier scan.
 *
 * <p><b>Containment.</b> A watch is only ever added by a scan of the boundary, on the directory the
 * scan is about to list, through the descriptor the {@link Walker} opened beneath the root (nothing
 * followed): {@code inotify_add_watch} on {@code /proc/self/fd/N}, which names exactly that inode,
 * with {@code IN_ONLYDIR | IN_EXCL_UNLINK}. {@code IN_DONT_FOLLOW} cannot be used there: the magic
 * link would then be watched itself (the kernel answers {@code ENOTDIR} with {@code IN_ONLYDIR});
 * the descriptor already is the directory, so nothing a symlink swapped in could lead to is ever
 * watched. A directory moved away has its watches removed when its {@code IN_MOVED_FROM} is read,
 * so a subtree moved out of the workspace is not watched there.
 *
 * <p><b>Order.</b> inotify delivers one instance's events in order, so {@link #sync} creates a file
 * (a cookie, as watchman and git's fsmonitor do) in a directory of its own outside the workspace,
 * watched by the same instance, and waits until the reader has seen it: every event of the tree up
 * to that moment has then been read. Each event gets a number; {@link #sync} answers the number
 * reached, and {@link #dirtySince} what changed after a number: the names with events, or that
 * everything must be scanned again (the queue overflowed, a watch could not be added, the root
 * moved, a git index changed).
 */
public final class TreeWatch implements AutoCloseable {

  /**
   * How many directories may be watched at most (the user's kernel limit applies too), and the hook
   * the reader calls before each read.
   */
  public record Settings(int maxWatches, TestHook hook) {
    public static final Settings DEFAULTS = new Settings(65_536, TestHook.NONE);

    public Settings {
      if (maxWatches < 1) {
        throw new IllegalArgumentException("at least one watch, not " + maxWatches);
      }
    }
  }

  /**
   * What changed after a mark: the names with an event (a directory among them stands for its whole
   * subtree), or why everything must be scanned again.
   */
  public record Dirty(Set<WorkspacePath> paths, Optional<String> everything) {}

  private static final int IN_MODIFY = 0x2;
  private static final int IN_ATTRIB = 0x4;
  private static final int IN_CLOSE_WRITE = 0x8;
  private static final int IN_MOVED_FROM = 0x40;
  private static final int IN_MOVED_TO = 0x80;
  private static final int IN_CREATE = 0x100;
  private static final int IN_DELETE = 0x200;
  private static final int IN_DELETE_SELF = 0x400;
  private static final int IN_MOVE_SELF = 0x800;
  private static final int IN_Q_OVERFLOW = 0x4000;
  private static final int IN_IGNORED = 0x8000;
  private static final int IN_ONLYDIR = 0x01000000;
  private static final int IN_EXCL_UNLINK = 0x04000000;
  private static final int IN_ISDIR = 0x40000000;

  private static final int TREE_EVENTS =
      IN_MODIFY
          | IN_ATTRIB
          | IN_CLOSE_WRITE
          | IN_MOVED_FROM
          | IN_MOVED_TO
          | IN_CREATE
          | IN_DELETE
          | IN_DELETE_SELF
          | IN_MOVE_SELF
          | IN_ONLYDIR
          | IN_EXCL_UNLINK;
  private static final int BUFFER = 64 * 1024;
  private static final String COOKIE = "cookie-";

  private final Libc libc;
  private final int fd;
  private final Settings settings;
  private final Path cookies;
  private final int cookieWatch;
  private final Thread reader;

  // guarded by this
  private final Map<Integer, Optional<WorkspacePath>> watched = new HashMap<>();
  private final Set<Integer> gitDirectories = new HashSet<>();
  private final Map<WorkspacePath, Long> dirty = new HashMap<>();
  private long sequence;
  private long everythingAt = -1;

  /** The largest number {@link #forgetUpTo} was given: what changed before it is not known. */
  private long forgottenUpTo = -1;

  private String everythingWhy = "";
  private long cookiesSent;
  private long cookiesSeen;
  private long overflows;
  private boolean closed;

  /** Why the reader closed the watch on its own; null while open, and when its owner closed it. */
  private String stoppedBecause;

  private TreeWatch(Libc libc, int fd, Settings settings, Path cookies, int cookieWatch) {
    this.libc = libc;
    this.fd = fd;
    this.settings = settings;
    this.cookies = cookies;
    this.cookieWatch = cookieWatch;
    this.reader = Thread.ofPlatform().daemon().name("turndiff-watch-" + fd).unstarted(this::read);
  }

  /**
   * A new watch with nothing watched yet (a scan adds the directories); empty where inotify cannot
   * be used: no native calls, no instance left for the user, no directory for the cookies, or the
   * posix mode ({@link Portability#watches}).
   */
  public static Optional<TreeWatch> open(Settings settings) {
    if (!Portability.current().watches()) {
      return Optional.empty();
    }
    Libc libc;
    try {
      libc = Libc.load();
    } catch (UnsupportedOperationException e) {
      return Optional.empty();
    }
    int fd;
    try (NativeCall call = libc.call()) {
      fd = libc.inotifyInit1(call, LinuxAbi.O_CLOEXEC);
    }
    if (fd < 0) {
      return Optional.empty();
    }
    Path cookies = null;
    try {
      cookies = Files.createTempDirectory("turndiff-watch-");
      int cookieWatch;
      try (NativeCall call = libc.call()) {
        cookieWatch =
            libc.inotifyAddWatch(
                call,
                fd,
                cookies.toString().getBytes(StandardCharsets.UTF_8),
                IN_CREATE | IN_ONLYDIR);
      }
      if (cookieWatch < 0) {
        throw new IOException("cannot watch " + cookies);
      }
      TreeWatch watch = new TreeWatch(libc, fd, settings, cookies, cookieWatch);
      watch.reader.start();
      return Optional.of(watch);
    } catch (IOException | RuntimeException e) {
      try (NativeCall call = libc.call()) {
        libc.close(call, fd);
      }
      if (cookies != null) {
        deleteQuietly(cookies);
      }
      return Optional.empty();
    }
  }

  /**
   * Waits until every event up to now has been read, and answers the number reached; empty when the
   * reader did not get there within {@code timeout} (it is paused or the watch is closed).
   */
  public OptionalLong sync(Duration timeout) {
    long cookie;
    synchronized (this) {
      if (closed) {
        return OptionalLong.empty();
      }
      cookie = ++cookiesSent;
    }
    Path file = cookies.resolve(COOKIE + cookie);
    try {
      Files.createFile(file);
      Files.delete(file);
    } catch (IOException e) {
      return OptionalLong.empty();
    }
    long deadline = System.nanoTime() + timeout.toNanos();
    synchronized (this) {
      while (cookiesSeen < cookie && !closed) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          return OptionalLong.empty();
        }
        try {
          wait(Math.max(1, left / 1_000_000));
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return OptionalLong.empty();
        }
      }
      return closed ? OptionalLong.empty() : OptionalLong.of(sequence);
    }
  }

  /**
   * Whether the watch is closed, by its owner or by its reader on an error: it reads no more
   * events, and every sync is unanswered.
   */
  public synchronized boolean isClosed() {
    return closed;
  }

  /**
   * Why the watch closed on its own (its read failed, its reader threw), for its owner to say where
   * the user looks; empty while it is open, and when its owner closed it.
   */
  public synchronized Optional<String> stoppedBecause() {
    return Optional.ofNullable(stoppedBecause);
  }

  /** What changed after {@code mark} (a number {@link #sync} answered). */
  public synchronized Dirty dirtySince(long mark) {
    if (everythingAt > mark) {
      return new Dirty(Set.of(), Optional.of(everythingWhy));
    }
    Set<WorkspacePath> paths = new HashSet<>();
    dirty.forEach(
        (path, at) -> {
          if (at > mark) {
            paths.add(path);
          }
        });
    return new Dirty(paths, Optional.empty());
  }

  /**
   * The number of the last event read so far, without waiting for the events not read yet: every
   * number {@link #sync} answered before is no larger, and a sync begun after this answers a larger
   * one (its cookie is an event, read before it answers).
   */
  public synchronized long reached() {
    return sequence;
  }

  /** Forgets the names whose last event is no later than {@code mark}: nobody asks about them. */
  public synchronized void forgetUpTo(long mark) {
    dirty.values().removeIf(at -> at <= mark);
    forgottenUpTo = Math.max(forgottenUpTo, mark);
  }

  /**
   * Whether every name with an event after {@code mark} is still known: false once {@link
   * #forgetUpTo} was given a later number (whether or not a name was dropped then), after which
   * {@code dirtySince(mark)} may leave some out. A name forgotten that has an event again is known
   * again, so what {@code dirtySince} answers of an older number still explains the names it holds;
   * it cannot say which are missing.
   */
  public synchronized boolean remembersSince(long mark) {
    return mark >= forgottenUpTo;
  }

  public synchronized int watches() {
    return watched.size();
  }

  public synchronized long overflows() {
    return overflows;
  }

  /**
   * Watches the directory {@code handle} (the scan's own, opened beneath the root) at {@code path};
   * when it cannot, everything must be scanned again from now on, until a scan adds every watch.
   */
  void add(DirectoryHandle handle, Optional<WorkspacePath> path, boolean gitDirectory) {
    String where = path.map(WorkspacePath::display).orElse(".");
    if (!(handle instanceof FdDirectory directory)) {
      lost("no descriptor to watch " + where + " by");
      return;
    }
    int wd;
    try (NativeCall call = libc.call()) {
      // the watch and its name together, with the reader held off: an event the new watch reports
      // is never read before its directory is known (it would be dropped), and a directory moved
      // away meanwhile (the reader removing its subtree's watches) is either gone before the add
      // (which then makes a new watch) or moved after it (which removes this one)
      synchronized (this) {
        if (closed) {
          return; // a walk that outlived the watch (the service's end): its descriptor is gone
        }
        wd =
            libc.inotifyAddWatch(
                call,
                fd,
                ("/proc/self/fd/" + directory.fd).getBytes(StandardCharsets.US_ASCII),
                TREE_EVENTS);
        if (wd >= 0 && !watched.containsKey(wd) && watched.size() >= settings.maxWatches()) {
          libc.inotifyRmWatch(call, fd, wd);
          wd = -LinuxAbi.ENOSPC;
        }
        if (wd >= 0) {
          watched.put(wd, path);
          if (gitDirectory) {
            gitDirectories.add(wd);
          }
          return;
        }
      }
      lost(
          wd == -LinuxAbi.ENOSPC
              ? "the watch limit was reached at " + where
              : "cannot watch " + where + ": " + libc.describe(-wd));
    }
  }

  private synchronized void lost(String why) {
    everything(why);
  }

  private void everything(String why) {
    everythingAt = ++sequence;
    everythingWhy = why;
  }

  /** The reader: reads events until the watch is closed, in order, one batch at a time. */
  private void read() {
    try (NativeCall call = libc.call()) {
      MemorySegment buffer = call.allocate(BUFFER);
      while (true) {
        settings.hook().reached(TestHook.Point.WATCH_READING);
        long read = libc.read(call, fd, buffer, BUFFER);
        if (read == -LinuxAbi.EINTR) {
          continue;
        }
        synchronized (this) {
          if (read <= 0 || closed) {
            if (!closed) {
              stopped(
                  read == 0
                      ? "its read returned nothing"
                      : "its read failed: " + libc.describe(Math.toIntExact(-read)));
            }
            closed = true;
            notifyAll();
            break;
          }
          handle(buffer, read);
          notifyAll();
        }
      }
    } catch (RuntimeException e) {
      // The watch is closed below; its owner learns why from stoppedBecause (Watching names it
      // with the whole scans it counts under "the watcher stopped", in service status): TreeWatch
      // has no log of its own.
      synchronized (this) {
        if (!closed) {
          stopped("its reader failed: " + oneLine(e));
        }
      }
    } finally {
      // However the reader stopped (the owner closed the watch, a read failed, something threw),
      // the watch is closed and then the descriptor, in one hold of the monitor: a thread that
      // finds the watch not closed under the monitor (close(), add()) uses a descriptor that is
      // still open, never a number the process may have reused since (another workspace's inotify
      // instance, say).
      synchronized (this) {
        closed = true;
        notifyAll();
        try (NativeCall call = libc.call()) {
          libc.close(call, fd);
        }
      }
    }
  }

  /**
   * The failure in one line, its type named (a parse error's message alone says little): the reason
   * is a key of the counts {@code service status} prints a line each.
   */
  private static String oneLine(RuntimeException e) {
    String message = e.getMessage() == null ? "" : e.getMessage().lines().findFirst().orElse("");
    return e.getClass().getSimpleName() + (message.isEmpty() ? "" : ": " + message);
  }

  /** Notes why the reader closes the watch, the first reason only. Callers hold the monitor. */
  private void stopped(String why) {
    if (stoppedBecause == null) {
      stoppedBecause = why;
    }
  }

  private void handle(MemorySegment buffer, long length) {
    long offset = 0;
    while (offset + 16 <= length) {
      int wd = buffer.get(JAVA_INT, offset);
      int mask = buffer.get(JAVA_INT, offset + 4);
      int nameLength = buffer.get(JAVA_INT, offset + 12);
      byte[] name = name(buffer, offset + 16, nameLength);
      offset += 16 + nameLength;
      event(wd, mask, name);
    }
  }

  private static byte[] name(MemorySegment buffer, long at, int length) {
    int size = 0;
    while (size < length && buffer.get(JAVA_BYTE, at + size) != 0) {
      size++;
    }
    byte[] name = new byte[size];
    MemorySegment.copy(buffer, JAVA_BYTE, at, name, 0, size);
    return name;
  }

  private void event(int wd, int mask, byte[] name) {
    sequence++;
    if ((mask & IN_Q_OVERFLOW) != 0) {
      overflows++;
      everything("the kernel's event queue overflowed");
      return;
    }
    if (wd == cookieWatch) {
      String text = new String(name, StandardCharsets.US_ASCII);
      if (text.startsWith(COOKIE)) {
        cookiesSeen = Math.max(cookiesSeen, Long.parseLong(text.substring(COOKIE.length())));
      }
      return;
    }
    Optional<WorkspacePath> directory = watched.get(wd);
    if (directory == null) {
      return; // a watch removed when its directory moved away: the move itself was recorded
    }
    if ((mask & IN_IGNORED) != 0) {
      watched.remove(wd);
      gitDirectories.remove(wd);
      return;
    }
    if ((mask & (IN_DELETE_SELF | IN_MOVE_SELF)) != 0) {
      if (directory.isEmpty()) {
        everything("the workspace root was moved or deleted");
      }
      return; // the directory's parent reports its name
    }
    if (gitDirectories.contains(wd)) {
      if (new String(name, StandardCharsets.UTF_8).equals("index")) {
        everything(
            "git's index in " + directory.map(WorkspacePath::display).orElse(".") + " changed");
      }
      return;
    }
    if (name.length == 0) {
      return;
    }
    WorkspacePath path =
        directory
            .map(parent -> parent.child(name))
            .orElseGet(() -> WorkspacePath.ofComponents(List.of(name)));
    dirty.put(path, sequence);
    if ((mask & (IN_ISDIR | IN_MOVED_FROM)) == (IN_ISDIR | IN_MOVED_FROM)) {
      unwatch(path);
    }
  }

  /** Removes the watches of a directory moved away and of everything under it. */
  private void unwatch(WorkspacePath moved) {
    List<Integer> gone = new ArrayList<>();
    watched.forEach(
        (wd, path) -> {
          if (path.isPresent() && (path.get().equals(moved) || path.get().isWithin(moved))) {
            gone.add(wd);
          }
        });
    try (NativeCall call = libc.call()) {
      for (int wd : gone) {
        libc.inotifyRmWatch(call, fd, wd);
        watched.remove(wd);
        gitDirectories.remove(wd);
      }
    }
  }

  /**
   * Stops the reader (removing the cookie watch wakes it) and removes the cookie directory, also
   * when the reader already stopped on its own.
   */
  @Override
  public void close() {
    synchronized (this) {
      // Removing the cookie watch wakes a reader blocked in read() (its IN_IGNORED event); it is
      // needed only when nobody closed the watch before. It is done under the monitor, because
      // the reader closes the descriptor under the monitor once it set closed: the number cannot
      // be closed and reused by another inotify instance in between, whose watch of the same
      // number would be removed. The reader never holds the monitor while it blocks in read(), so
      // this does not wait for an event.
      if (!closed) {
        try (NativeCall call = libc.call()) {
          libc.inotifyRmWatch(call, fd, cookieWatch);
        }
      }
      closed = true;
      notifyAll();
    }
    // Always, even when the reader closed the watch first (a failed read): the directory is only
    // ever removed here, and removing it again does nothing.
    deleteQuietly(cookies);
  }

  private static void deleteQuietly(Path directory) {
    try {
      Files.deleteIfExists(directory);
    } catch (IOException e) {
      // a cookie left behind by a sync that failed halfway: the directory stays in the temp dir
    }
  }
}
