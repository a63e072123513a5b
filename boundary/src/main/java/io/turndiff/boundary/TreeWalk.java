package io.turndiff.boundary;

import io.turndiff.model.FileType;
import io.turndiff.model.WorkspacePath;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * One walk of a workspace for {@link WorkspaceBoundary#scan}: depth first, names in byte order, the
 * visitor called on the walking thread only, so its decisions (ignore rules, budgets) are the same
 * on every run.
 *
 * <p>Listing a directory costs a {@code statx} per name, which dominates a scan; so a directory is
 * handed to a pool of listers as soon as the visitor decides to enter it, and the walk only waits
 * for listings it reaches. A directory the visitor ignores or leaves out is never listed.
 *
 * <p>Each directory is opened in its parent, which the walk keeps open until its subdirectories
 * have opened theirs ({@link KeptDirectories}): a walk's system calls grow with the number of
 * directories, not with their depth times their number.
 */
final class TreeWalk {

  private static final byte[] DOT_GIT = {'.', 'g', 'i', 't'};

  private record Pending(
      Optional<WorkspacePath> path, Optional<StatInfo> stat, Future<Listing> listing) {}

  /**
   * A directory's listing, and the directory itself when it is kept open for its subdirectories.
   */
  private record Listing(DirectoryListing names, Optional<KeptDirectories.Kept> kept) {}

  private final Lookups access;
  private final ScanVisitor visitor;
  private final Optional<TreeWatch> watch;
  private final KeptDirectories kept = new KeptDirectories();

  TreeWalk(Lookups access, ScanVisitor visitor) {
    this(access, visitor, Optional.empty());
  }

  /**
   * A walk that has {@code watch} watch each directory before listing it (and each git directory it
   * meets), so that a change after a listing is an event.
   */
  TreeWalk(Lookups access, ScanVisitor visitor, Optional<TreeWatch> watch) {
    this.access = access;
    this.visitor = visitor;
    this.watch = watch;
  }

  void run() {
    ExecutorService pool = pool();
    try {
      walk(
          pool,
          new Pending(
              Optional.empty(), Optional.empty(), list(pool, Optional.empty(), Optional.empty())));
    } finally {
      pool.shutdownNow();
      pool.close();
      kept.closeAll();
    }
  }

  private static ExecutorService pool() {
    int listers = Math.max(1, Math.min(8, Runtime.getRuntime().availableProcessors()));
    return Executors.newFixedThreadPool(
        listers, Thread.ofPlatform().daemon().name("turndiff-scan-", 0).factory());
  }

  /** Whether the walk to a start may go on through a directory above it. */
  private enum Above {
    ENTERED,
    GONE,
    NOT_COVERED
  }

  /**
   * Looks again at {@code starts} only (the names a watch saw change), as the whole walk would have
   * met them: each directory above a start is decided on by the visitor and entered (its
   * interesting names looked up, not listed), a start that is a file is found, a start that is a
   * directory is walked whole. A start that does not exist is not reported: the caller knows what
   * it asked about.
   */
  void runFrom(List<WorkspacePath> starts) {
    List<WorkspacePath> sorted = new ArrayList<>(starts);
    sorted.sort(WorkspacePath::compareTo);
    Map<Optional<WorkspacePath>, Above> above = new HashMap<>();
    List<WorkspacePath> walked = new ArrayList<>();
    DescentToStarts descent = new DescentToStarts(access, kept);
    ExecutorService pool = null;
    try {
      for (WorkspacePath start : sorted) {
        if (walked.stream().anyMatch(start::isWithin)) {
          continue;
        }
        if (enter(start.parent(), above, descent) != Above.ENTERED) {
          continue;
        }
        Attempt<StatInfo> lstat = descent.lstat(start);
        if (lstat instanceof Attempt.Refused<StatInfo>(HandleFailure why)) {
          if (Lookups.lookupOf(why) instanceof Lookup.Failed failed) {
            visitor.unlisted(start, failed.detail());
          }
          continue;
        }
        StatInfo stat = ((Attempt.Done<StatInfo>) lstat).value();
        if (stat.type() != FileType.DIRECTORY) {
          if (!visitor.ignored(start)) {
            byte[] link = stat.type() == FileType.SYMLINK ? descent.readLink(start) : null;
            visitor.found(ScannedEntry.of(start, stat, link, false));
          }
          continue;
        }
        if (visitor.directory(start) != ScanVisitor.Descend.ENTER) {
          continue;
        }
        if (stat.device() != access.rootStat().device()) {
          visitor.found(ScannedEntry.of(start, stat, null, true));
          continue;
        }
        walked.add(start);
        visitor.entered(start, stat.mode() & 07777);
        if (pool == null) {
          pool = pool();
        }
        walk(
            pool,
            new Pending(
                Optional.of(start),
                Optional.of(stat),
                list(pool, Optional.of(start), descent.share(start.parent()))));
      }
    } finally {
      descent.letGo();
      if (pool != null) {
        pool.shutdownNow();
        pool.close();
      }
      kept.closeAll();
    }
  }

  /**
   * Decides on and enters the directories down to {@code directory}, as the walk would, each looked
   * at in its parent held open by {@code descent}: those not decided yet from the top down, in a
   * loop. As a recursion (a directory's parent decided first) a chain thousands of directories deep
   * overflowed the stack: 3,000 frames of C1's code did in a JVM with the default 1 MB stack
   * ({@code DeepWalkTest}, the test JVMs on C1).
   */
  private Above enter(
      Optional<WorkspacePath> directory,
      Map<Optional<WorkspacePath>, Above> above,
      DescentToStarts descent) {
    ArrayDeque<Optional<WorkspacePath>> undecided = new ArrayDeque<>();
    Optional<WorkspacePath> at = directory;
    while (!above.containsKey(at)) {
      undecided.push(at);
      if (at.isEmpty()) {
        break;
      }
      at = at.get().parent();
    }
    while (!undecided.isEmpty()) {
      Optional<WorkspacePath> next = undecided.pop();
      Above parent = next.isPresent() ? above.get(next.get().parent()) : Above.ENTERED;
      above.put(next, decide(next, parent, descent));
    }
    return above.get(directory);
  }

  /**
   * Decides on {@code directory} whose parent was decided {@code parent}, and enters it when the
   * walk would.
   */
  private Above decide(Optional<WorkspacePath> directory, Above parent, DescentToStarts descent) {
    Above decided = Above.ENTERED;
    if (directory.isPresent()) {
      if (parent != Above.ENTERED) {
        decided = parent;
      } else if (!(descent.lstat(directory.get()) instanceof Attempt.Done<StatInfo>(StatInfo stat))
          || stat.type() != FileType.DIRECTORY
          || stat.device() != access.rootStat().device()) {
        decided = Above.GONE; // its parent's watch saw it go: it is a start of its own
      } else if (visitor.directory(directory.get()) != ScanVisitor.Descend.ENTER) {
        decided = Above.NOT_COVERED;
      }
    }
    if (decided == Above.ENTERED) {
      Set<String> present = new HashSet<>();
      for (String name : visitor.interesting()) {
        WorkspacePath file =
            directory
                .map(dir -> dir.child(name.getBytes(StandardCharsets.UTF_8)))
                .orElseGet(() -> WorkspacePath.of(name));
        if (descent.lstat(file).ok()) {
          present.add(name);
        }
      }
      visitor.entering(directory, present);
    }
    return decided;
  }

  /**
   * Lists {@code directory} on the pool: opened in {@code parent} when the walk kept it (the parent
   * let go of once this one is open), and kept open in turn when it holds directories the walk may
   * enter.
   */
  private Future<Listing> list(
      ExecutorService pool,
      Optional<WorkspacePath> directory,
      Optional<KeptDirectories.Kept> parent) {
    return pool.submit(
        () -> {
          Lookups.OpenListing opened;
          try {
            opened =
                access.listKeptOpen(directory, parent.map(KeptDirectories.Kept::directory), watch);
          } finally {
            parent.ifPresent(KeptDirectories.Kept::release);
          }
          if (!(opened.listing() instanceof DirectoryListing.Listed listed)) {
            return new Listing(opened.listing(), Optional.empty());
          }
          List<DirectoryListing.Entry> sorted = new ArrayList<>(listed.entries());
          sorted.sort((a, b) -> Arrays.compareUnsigned(a.name(), b.name()));
          DirectoryHandle handle = opened.directory().orElseThrow();
          boolean holdsDirectories =
              sorted.stream()
                  .anyMatch(
                      entry -> entry.stat() != null && entry.stat().type() == FileType.DIRECTORY);
          Optional<KeptDirectories.Kept> keptOpen = Optional.empty();
          if (holdsDirectories) {
            keptOpen = kept.keep(handle);
          } else {
            handle.close();
          }
          return new Listing(new DirectoryListing.Listed(sorted), keptOpen);
        });
  }

  private void walk(ExecutorService pool, Pending first) {
    ArrayDeque<Pending> stack = new ArrayDeque<>();
    stack.push(first);
    Set<String> interesting = visitor.interesting();
    long rootDevice = access.rootStat().device();
    while (!stack.isEmpty()) {
      Pending directory = stack.pop();
      Listing opened = await(directory.listing());
      DirectoryListing listing = opened.names();
      if (listing instanceof DirectoryListing.NotListed notListed) {
        if (directory.path().isPresent()) {
          if (notListed.why() instanceof Lookup.OtherMount && directory.stat().isPresent()) {
            visitor.found(
                ScannedEntry.of(directory.path().get(), directory.stat().get(), null, true));
          } else {
            visitor.unlisted(directory.path().get(), describe(notListed.why()));
          }
        }
        continue;
      }
      List<DirectoryListing.Entry> entries = ((DirectoryListing.Listed) listing).entries();
      Set<String> present = new HashSet<>();
      if (!interesting.isEmpty()) {
        for (DirectoryListing.Entry entry : entries) {
          String name = new String(entry.name(), StandardCharsets.UTF_8);
          if (interesting.contains(name)) {
            present.add(name);
          }
        }
      }
      visitor.entering(directory.path(), present);
      List<Pending> directories = new ArrayList<>();
      for (DirectoryListing.Entry entry : entries) {
        WorkspacePath path =
            directory
                .path()
                .map(dir -> dir.child(entry.name()))
                .orElseGet(() -> WorkspacePath.ofComponents(List.of(entry.name())));
        if (entry.stat() == null) {
          visitor.unlisted(path, "lstat failed");
          continue;
        }
        if (entry.stat().type() == FileType.DIRECTORY) {
          if (watch.isPresent() && Arrays.equals(entry.name(), DOT_GIT)) {
            access.watchGitDirectory(path, watch.get());
          }
          boolean enter = visitor.directory(path) == ScanVisitor.Descend.ENTER;
          if (enter && entry.stat().device() != rootDevice) {
            visitor.found(ScannedEntry.of(path, entry.stat(), null, true));
          } else if (enter) {
            visitor.entered(path, entry.stat().mode() & 07777);
            directories.add(
                new Pending(
                    Optional.of(path),
                    Optional.of(entry.stat()),
                    list(pool, Optional.of(path), opened.kept().map(KeptDirectories.Kept::share))));
          }
          continue;
        }
        if (!visitor.ignored(path)) {
          visitor.found(ScannedEntry.of(path, entry.stat(), entry.linkText(), false));
        }
      }
      // every subdirectory entered has its own share of this directory by now
      opened.kept().ifPresent(KeptDirectories.Kept::release);
      for (int i = directories.size() - 1; i >= 0; i--) {
        stack.push(directories.get(i));
      }
    }
  }

  private static Listing await(Future<Listing> listing) {
    try {
      return listing.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while scanning the workspace", e);
    } catch (ExecutionException e) {
      throw e.getCause() instanceof RuntimeException runtime
          ? runtime
          : new IllegalStateException(e.getCause());
    }
  }

  private static String describe(Lookup why) {
    return switch (why) {
      case Lookup.Missing missing -> "it disappeared";
      case Lookup.LinkInPath link -> "it turned into a symlink";
      case Lookup.OtherMount mount -> "it is another mount";
      case Lookup.Failed failed -> failed.detail();
      case Lookup.Found found -> "it changed";
    };
  }
}
