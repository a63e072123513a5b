package io.turndiff.boundary;

import io.turndiff.model.FileType;
import io.turndiff.model.WorkspacePath;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
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
 */
final class TreeWalk {

  private record Pending(
      Optional<WorkspacePath> path, Optional<StatInfo> stat, Future<DirectoryListing> listing) {}

  private final Lookups access;
  private final ScanVisitor visitor;

  TreeWalk(Lookups access, ScanVisitor visitor) {
    this.access = access;
    this.visitor = visitor;
  }

  void run() {
    int listers = Math.max(1, Math.min(8, Runtime.getRuntime().availableProcessors()));
    ExecutorService pool =
        Executors.newFixedThreadPool(
            listers, Thread.ofPlatform().daemon().name("turndiff-scan-", 0).factory());
    try {
      walk(pool);
    } finally {
      pool.shutdownNow();
      pool.close();
    }
  }

  private Future<DirectoryListing> list(ExecutorService pool, Optional<WorkspacePath> directory) {
    return pool.submit(
        () -> {
          DirectoryListing listing = access.list(directory);
          if (listing instanceof DirectoryListing.Listed listed) {
            List<DirectoryListing.Entry> sorted = new ArrayList<>(listed.entries());
            sorted.sort((a, b) -> Arrays.compareUnsigned(a.name(), b.name()));
            return new DirectoryListing.Listed(sorted);
          }
          return listing;
        });
  }

  private void walk(ExecutorService pool) {
    ArrayDeque<Pending> stack = new ArrayDeque<>();
    stack.push(new Pending(Optional.empty(), Optional.empty(), list(pool, Optional.empty())));
    Set<String> interesting = visitor.interesting();
    long rootDevice = access.rootStat().device();
    while (!stack.isEmpty()) {
      Pending directory = stack.pop();
      DirectoryListing listing = await(directory.listing());
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
          boolean enter = visitor.directory(path) == ScanVisitor.Descend.ENTER;
          if (enter && entry.stat().device() != rootDevice) {
            visitor.found(ScannedEntry.of(path, entry.stat(), null, true));
          } else if (enter) {
            visitor.entered(path, entry.stat().mode() & 07777);
            directories.add(
                new Pending(
                    Optional.of(path), Optional.of(entry.stat()), list(pool, Optional.of(path))));
          }
          continue;
        }
        if (!visitor.ignored(path)) {
          visitor.found(ScannedEntry.of(path, entry.stat(), entry.linkText(), false));
        }
      }
      for (int i = directories.size() - 1; i >= 0; i--) {
        stack.push(directories.get(i));
      }
    }
  }

  private static DirectoryListing await(Future<DirectoryListing> listing) {
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
