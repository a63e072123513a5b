package io.turndiff.capture.track;

import io.turndiff.boundary.ScanVisitor;
import io.turndiff.boundary.ScannedEntry;
import io.turndiff.boundary.TreeWatch;
import io.turndiff.boundary.WorkspaceBoundary;
import io.turndiff.model.FileType;
import io.turndiff.model.IndexEntry;
import io.turndiff.model.Reason;
import io.turndiff.model.StatProof;
import io.turndiff.model.WorkspacePath;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * One walk of the tree through the boundary, comparing each path with the index as it is found: a
 * path whose stat proves it unchanged ({@link StatProof#provesUnchangedSince}) is only marked seen,
 * so an unchanged tree costs a listing and a lookup per path; every other path is a candidate to
 * read. Ignored directories are never listed ({@link IgnoreRules}); a file git ignores in a
 * directory the walk enters is taken in as the workspace's {@link IgnoredFiles} says, up to its
 * size cap, and every other ignored file is never opened; the store's own files are never indexed;
 * the {@link Budget} decides what is left out, counting the ignored files taken in like any other.
 */
final class TreeScan implements ScanVisitor {

  private final WorkspaceBoundary boundary;
  private final IgnoreRules rules;
  private final IndexCache.Index index;
  private final Budget budget;
  private final List<Scan.Candidate> candidates = new ArrayList<>();
  private final BitSet seen;
  private final Set<WorkspacePath> notCovered = new HashSet<>();
  private final Set<WorkspacePath> ignored = new HashSet<>();
  private final List<String> unlisted = new ArrayList<>();
  private final Map<WorkspacePath, Integer> directories = new HashMap<>();
  private final IgnoredFiles keptOfIgnored;
  private final long ignoredMaxBytes;
  private final Set<WorkspacePath> ignoredFiles = new HashSet<>();
  private final List<WorkspacePath> ignoredOverCap = new ArrayList<>();

  private TreeScan(
      WorkspaceBoundary boundary,
      IgnoreRules rules,
      IndexCache.Index index,
      Budget budget,
      TrackingOptions options) {
    this.boundary = boundary;
    this.rules = rules;
    this.index = index;
    this.budget = budget;
    this.seen = new BitSet(index.numbers());
    this.keptOfIgnored = options.ignoredFilesOr(IgnoredFiles.NONE);
    this.ignoredMaxBytes = options.ignoredMaxBytes();
  }

  /**
   * Walks the tree of {@code boundary} against {@code index}; {@code storeFile} is the store's
   * database.
   */
  static Scan walk(
      WorkspaceBoundary boundary,
      Optional<Path> storeFile,
      GitIndexes git,
      TrackingOptions options,
      IndexCache.Index index,
      Optional<TreeWatch> watch) {
    long startedAt = nowNanos();
    TreeScan scan =
        new TreeScan(
            boundary, rules(boundary, storeFile, git, index), index, new Budget(options), options);
    if (watch.isPresent()) {
      boundary.scan(scan, watch.get());
    } else {
      boundary.scan(scan);
    }
    return scan.result(startedAt);
  }

  /**
   * Looks again only at {@code dirty}, the names a watch saw change since the index was written
   * (each directory among them walked whole), and trusts the index for everything else; empty when
   * the result would pass the budgets (then the whole tree must decide what is left out).
   */
  static Optional<Scan> walkChanged(
      WorkspaceBoundary boundary,
      Optional<Path> storeFile,
      GitIndexes git,
      TrackingOptions options,
      IndexCache.Index index,
      Set<WorkspacePath> dirty,
      TreeWatch watch) {
    long startedAt = nowNanos();
    TreeScan scan =
        new TreeScan(
            boundary,
            rules(boundary, storeFile, git, index),
            index,
            new Budget(new TrackingOptions(Long.MAX_VALUE, Long.MAX_VALUE)),
            options);
    boundary.scanPaths(dirty, scan, watch);
    return scan.changedResult(startedAt, dirty, options);
  }

  private static IgnoreRules rules(
      WorkspaceBoundary boundary,
      Optional<Path> storeFile,
      GitIndexes git,
      IndexCache.Index index) {
    return new IgnoreRules(
        storeFile.map(file -> storeFilesIn(boundary, file)).orElse(Set.of()),
        git,
        index::holdsWithin);
  }

  @Override
  public Set<String> interesting() {
    return IgnoreRules.INTERESTING;
  }

  @Override
  public void entering(Optional<WorkspacePath> directory, Set<String> ignoreFilesPresent) {
    rules.entering(directory, boundary, ignoreFilesPresent);
  }

  @Override
  public Descend directory(WorkspacePath directory) {
    if (rules.ignored(directory, true)) {
      notCovered.add(directory);
      return Descend.IGNORE;
    }
    if (!budget.admitsDirectory(directory)) {
      notCovered.add(directory);
      return Descend.LEAVE_OUT;
    }
    return Descend.ENTER;
  }

  @Override
  public void entered(WorkspacePath directory, int mode) {
    directories.put(directory, mode);
  }

  @Override
  public boolean ignored(WorkspacePath path) {
    IgnoreRules.Verdict verdict = rules.judge(path, false);
    if (verdict == IgnoreRules.Verdict.NOBODY) {
      return false;
    }
    if (verdict == IgnoreRules.Verdict.GITIGNORE && keptOfIgnored != IgnoredFiles.NONE) {
      // a file git ignores beside the sources (a .env): its size decides, when it is found
      ignoredFiles.add(path);
      return false;
    }
    ignored.add(path);
    return true;
  }

  @Override
  public void found(ScannedEntry entry) {
    if (!ignoredFiles.isEmpty() && ignoredFiles.contains(entry.path()) && overTheCap(entry)) {
      ignoredFiles.remove(entry.path());
      ignored.add(entry.path());
      ignoredOverCap.add(entry.path());
      return;
    }
    if (!budget.admit(entry)) {
      ignoredFiles.remove(entry.path());
      return;
    }
    IndexCache.Slot slot = index.slot(entry.path());
    if (slot == null) {
      candidates.add(new Scan.Candidate(entry, Optional.empty()));
      return;
    }
    seen.set(slot.number());
    StatProof now = IndexComparison.statOf(entry);
    // another mount is never read (it is indexed with metadata only): its stat is all there is to
    // compare. Only the stat: the whole entry is built for a path found changed, not for each one
    // a whole walk finds
    boolean unchanged =
        entry.otherMount()
            ? now.equals(slot.stat())
            : now.provesUnchangedSince(slot.stat(), index.indexedAtNanos());
    if (!unchanged || keptOtherwise(slot)) {
      candidates.add(new Scan.Candidate(entry, Optional.of(slot.entry())));
    }
  }

  /**
   * Whether an ignored file's entry keeps its content where the workspace now keeps only its hash,
   * or the reverse ({@code track --ignored-files} changed it): it is read again, as if it changed.
   */
  private boolean keptOtherwise(IndexCache.Slot slot) {
    if (ignoredFiles.isEmpty() || !ignoredFiles.contains(slot.path())) {
      return false;
    }
    IndexEntry indexed = slot.entry();
    boolean hashOnly = indexed.reason().equals(Optional.of(Reason.IGNORED_NOT_STORED));
    return keptOfIgnored == IgnoredFiles.METADATA ? indexed.storedContent().isPresent() : hashOnly;
  }

  /**
   * An ignored file bigger than the cap is not indexed (nor, once indexed, kept: it is dropped as a
   * file ignored now is). A log or a build output can be large, and a turn that rewrites it is
   * rarely what a rewind is for; a {@code .env} is small.
   */
  private boolean overTheCap(ScannedEntry entry) {
    return entry.type() == FileType.REGULAR && entry.size() > ignoredMaxBytes;
  }

  @Override
  public void unlisted(WorkspacePath directory, String why) {
    notCovered.add(directory);
    unlisted.add(directory.display() + ": " + why);
  }

  private Scan result(long startedAt) {
    List<IndexEntry> unseen = new ArrayList<>();
    for (int i = seen.nextClearBit(0); i < index.numbers(); i = seen.nextClearBit(i + 1)) {
      IndexEntry entry = index.entry(i);
      if (entry != null) {
        unseen.add(entry);
      }
    }
    List<WorkspacePath> leftOut = budget.leftOut();
    notCovered.addAll(leftOut);
    return new Scan(
        candidates,
        unseen,
        notCovered,
        ignored,
        leftOut,
        unlisted,
        budget.files(),
        budget.bytes(),
        budget.spent(),
        startedAt,
        DirectoryModes.of(directories),
        keptOfIgnored,
        ignoredFiles,
        ignoredOverCap,
        gitIgnoredAmong(unseen));
  }

  /**
   * The files among {@code unseen} that git ignores. A deleted file is never heard by the walk, so
   * its verdict is asked here, after it: the rules of its directory were loaded when the walk
   * entered it, and git's index when it met the work tree. Nothing to ask when the workspace keeps
   * no ignored file (none is in its index then).
   */
  private Set<WorkspacePath> gitIgnoredAmong(List<IndexEntry> unseen) {
    Set<WorkspacePath> gone = new HashSet<>();
    if (keptOfIgnored == IgnoredFiles.NONE) {
      return gone;
    }
    for (IndexEntry entry : unseen) {
      if (rules.judge(entry.path(), false) == IgnoreRules.Verdict.GITIGNORE) {
        gone.add(entry.path());
      }
    }
    return gone;
  }

  /**
   * The result of a walk of the changed names alone: an indexed path is unseen (gone) only if it is
   * one of them or under one that was a directory, and the directories are the index's with those
   * under the changed names replaced by what the walk entered.
   */
  private Optional<Scan> changedResult(
      long startedAt, Set<WorkspacePath> dirty, TrackingOptions options) {
    DirectoryModes before = index.directories().orElseThrow();
    List<WorkspacePath> wereDirectories = dirty.stream().filter(before::contains).toList();
    List<IndexEntry> unseen = new ArrayList<>();
    for (WorkspacePath path : dirty) {
      IndexCache.Slot slot = index.slot(path);
      if (slot != null && !seen.get(slot.number())) {
        unseen.add(slot.entry());
      }
    }
    // the entries under a directory that had an event: one run of the sorted index each, not a
    // pass over every entry
    Set<WorkspacePath> under = new HashSet<>();
    for (WorkspacePath directory : wereDirectories) {
      for (IndexEntry entry : index.within(directory)) {
        IndexCache.Slot slot = index.slot(entry.path());
        if (!dirty.contains(entry.path()) && !seen.get(slot.number()) && under.add(entry.path())) {
          unseen.add(entry);
        }
      }
    }
    // the directories under one that had an event are gone unless the walk entered them again:
    // one run of the sorted base each, and the walk's laid over the index's, not copied with them
    List<WorkspacePath> wereUnder = new ArrayList<>();
    for (WorkspacePath directory : wereDirectories) {
      wereUnder.addAll(before.within(directory));
    }
    DirectoryModes now = before.with(directories, wereUnder);
    long added = candidates.stream().filter(candidate -> candidate.indexed().isEmpty()).count();
    long files = index.size() + added - unseen.size();
    if (files > options.maxFiles() || index.regularBytes() + budget.bytes() > options.maxBytes()) {
      return Optional.empty();
    }
    return Optional.of(
        new Scan(
            candidates,
            unseen,
            notCovered,
            ignored,
            List.of(),
            unlisted,
            (int) files,
            index.regularBytes(),
            false,
            startedAt,
            now,
            keptOfIgnored,
            ignoredFiles,
            ignoredOverCap,
            gitIgnoredAmong(unseen)));
  }

  /** The store's files, when the store lives inside the workspace: never indexed. */
  private static Set<WorkspacePath> storeFilesIn(WorkspaceBoundary boundary, Path database) {
    Set<WorkspacePath> paths = new HashSet<>();
    for (Path root : List.of(boundary.rootReal(), boundary.rootGiven())) {
      Path parent = database.toAbsolutePath().getParent();
      for (String name :
          List.of(
              database.getFileName().toString(),
              database.getFileName() + "-wal",
              database.getFileName() + "-shm",
              database.getFileName() + "-journal",
              // the service's files beside the store: its token (and the header that carries it)
              // must never be indexed, nor its record
              database.getFileName() + ".token",
              database.getFileName() + ".service.header",
              database.getFileName() + ".service.json",
              "turndiff.token")) {
        Path file = parent.resolve(name);
        if (file.startsWith(root) && !file.equals(root)) {
          paths.add(WorkspacePath.of(root.relativize(file).toString()));
        }
      }
    }
    return paths;
  }

  /** The wall clock in ns since the epoch: the clock file timestamps are stamped from. */
  private static long nowNanos() {
    Instant now = Instant.now();
    return now.getEpochSecond() * 1_000_000_000L + now.getNano();
  }
}
