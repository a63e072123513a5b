package io.turndiff.capture.track;

import io.turndiff.boundary.Observation;
import io.turndiff.boundary.ScanVisitor;
import io.turndiff.boundary.ScannedEntry;
import io.turndiff.boundary.WorkspaceBoundary;
import io.turndiff.boundary.WorkspaceRoot;
import io.turndiff.capture.workspace.WorkspaceHandles;
import io.turndiff.model.ChangeKind;
import io.turndiff.model.DirectoryState;
import io.turndiff.model.FileMetadata;
import io.turndiff.model.FileType;
import io.turndiff.model.IndexEntry;
import io.turndiff.model.Presence;
import io.turndiff.model.Reason;
import io.turndiff.model.RequestException;
import io.turndiff.model.Snapshot;
import io.turndiff.model.StatProof;
import io.turndiff.model.WorkspacePath;
import io.turndiff.store.BlobEncoder;
import io.turndiff.store.EncodedBlob;
import io.turndiff.store.Store;
import io.turndiff.store.StoreTransaction;
import io.turndiff.store.StoredWorkspace;
import io.turndiff.store.TrackedWorkspace;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Keeps the index of tracked workspaces: every path that is not ignored, with its stat (including the change
 * time) and its content hash, and the content itself as a baseline in the blob table, so that changes made
 * by shell commands (which no tool announces) can be found, diffed and rewound.
 *
 * <p>Like git's index: building it reads every file once; after that a scan lists the tree and re-reads only
 * paths whose stat moved. And like JGit's {@code FileSnapshot}, a file modified within a timestamp tick of
 * the scan that indexed it is "racy": its stat cannot prove it unchanged (a same-size rewrite in the same
 * tick keeps it), so the next scan reads it again whatever its stat says.
 *
 * <p>Scanning goes through the workspace boundary: symlinks are indexed as links, other mounts, hardlinked
 * and special files with metadata only, ignored paths are never read, and nothing outside the root is walked.
 * What is ignored follows git ({@link IgnoreRules}): a path in git's index is tracked whatever
 * {@code .gitignore} says.
 */
public final class Tracker {

  private static final int BLOB_BATCH = 256;
  private static final int MAX_ATTEMPTS = 5;

  private final Store store;
  private final WorkspaceHandles workspaces;
  private final Map<Long, CachedIndex> cache = new ConcurrentHashMap<>();
  /** Per workspace: what git tracks in it, read again only when a git index changes. */
  private final Map<Long, GitIndexes> gitIndexes = new ConcurrentHashMap<>();

  /**
   * An index in memory: its entries numbered, so that a scan can mark each one it saw in a bit set; its
   * directories with their modes (empty when the index was written before directories were indexed); and the
   * directories that hold its entries, listed the first time a scan asks.
   */
  private record CachedIndex(long version, Map<WorkspacePath, Slot> slots, List<IndexEntry> entries,
                             Optional<Map<WorkspacePath, Integer>> directories,
                             AtomicReference<DirectoriesHolding> holding) {

    static CachedIndex of(long version, Map<WorkspacePath, IndexEntry> byPath,
                          Optional<Map<WorkspacePath, Integer>> directories) {
      Map<WorkspacePath, Slot> slots = HashMap.newHashMap(byPath.size());
      List<IndexEntry> entries = new ArrayList<>(byPath.size());
      for (IndexEntry entry : byPath.values()) {
        slots.put(entry.path(), new Slot(entry, entries.size()));
        entries.add(entry);
      }
      return new CachedIndex(version, slots, entries, directories, new AtomicReference<>());
    }

    boolean holdsWithin(WorkspacePath directory) {
      DirectoriesHolding known = holding.get();
      if (known == null) {
        known = DirectoriesHolding.of(slots.keySet());
        holding.compareAndSet(null, known);
      }
      return known.holds(directory);
    }
  }

  private record Slot(IndexEntry entry, int number) {
  }

  public Tracker(Store store, WorkspaceHandles workspaces) {
    this.store = store;
    this.workspaces = workspaces;
  }

  // ---- the public operations --------------------------------------------------------------------------

  /** Told how far reading the tree has come (files read, files to read). */
  @FunctionalInterface
  public interface Progress {
    Progress NONE = (done, total) -> {
    };

    void read(int done, int total);
  }

  /** Builds (or rebuilds) the index of {@code workspace}, and tracks it from now on. */
  public TrackSummary track(Path workspace, TrackingOptions options) {
    return track(workspace, options, Progress.NONE);
  }

  public TrackSummary track(Path workspace, TrackingOptions options, Progress progress) {
    long started = System.nanoTime();
    WorkspaceBoundary opened = workspaces.openGiven(workspace);
    long workspaceId;
    try {
      workspaceId = store.write(tx -> tx.workspaces().register(workspace.toString(),
          opened.rootReal().toString(), opened.rootDevice(), opened.rootInode()).id());
    } catch (RuntimeException e) {
      opened.close();
      throw e;
    }
    try (WorkspaceHandles.Lease lease = workspaces.adopt(workspaceId, opened)) {
      Comparison comparison = compareAndWrite(workspaceId, lease.boundary(), options, progress);
      return summary(lease.boundary(), comparison, System.nanoTime() - started);
    }
  }

  /** What changed since the index was written; nothing is written. */
  public WorkspaceStatus status(Path workspace) {
    long started = System.nanoTime();
    StoredWorkspace stored = trackedWorkspace(workspace);
    try (WorkspaceHandles.Lease lease = workspaces.borrow(stored.id())) {
      WorkspaceBoundary boundary = lease.boundary();
      TrackingOptions options = options(stored.id());
      Comparison comparison = compare(stored.id(), boundary, options, false, Progress.NONE);
      return new WorkspaceStatus(boundary.rootReal().toString(), comparison.changes(), comparison.scan().partial(),
          comparison.scan().leftOut(), System.nanoTime() - started);
    }
  }

  public boolean isTracked(long workspaceId) {
    return store.read(tx -> tx.indexes().version(workspaceId)).isPresent();
  }

  /** Brings the index up to the workspace's state now (a turn's before-state): returns what had changed. */
  public List<PathChange> refresh(long workspaceId) {
    try (WorkspaceHandles.Lease lease = workspaces.borrow(workspaceId)) {
      return compareAndWrite(workspaceId, lease.boundary(), options(workspaceId), Progress.NONE).changes();
    }
  }

  private Comparison compareAndWrite(long workspaceId, WorkspaceBoundary boundary, TrackingOptions options,
                                     Progress progress) {
    for (int attempt = 1; ; attempt++) {
      Comparison comparison = compare(workspaceId, boundary, options, true, progress);
      if (store.write(tx -> write(tx, workspaceId, comparison, options))) {
        return comparison;
      }
      if (attempt >= MAX_ATTEMPTS) {
        throw new RequestException(RequestException.Problem.WRONG_STATE, "the index of workspace "
            + boundary.rootReal() + " kept being rewritten by other scans: try again");
      }
    }
  }

  /**
   * What changed since the index was written, with the new content already stored as blobs; {@link #absorb}
   * then writes the index to match, inside the caller's transaction (a turn's finish).
   */
  public Comparison changes(long workspaceId) {
    try (WorkspaceHandles.Lease lease = workspaces.borrow(workspaceId)) {
      return compare(workspaceId, lease.boundary(), options(workspaceId), true, Progress.NONE);
    }
  }

  /**
   * Writes the index after {@link #changes}, in the caller's transaction; false (nothing written) when another
   * scan wrote the index since, and the caller must compare again.
   */
  public boolean absorb(StoreTransaction tx, long workspaceId, Comparison comparison) {
    return write(tx, workspaceId, comparison, options(workspaceId));
  }

  private StoredWorkspace trackedWorkspace(Path workspace) {
    Path absolute = workspace.toAbsolutePath().normalize();
    StoredWorkspace stored = store.read(tx -> tx.workspaces().byRealRoot(absolute.toString())
            .or(() -> tx.workspaces().byGivenRoot(absolute.toString())))
        .or(() -> WorkspaceRoot.real(absolute)
            .flatMap(real -> store.read(tx -> tx.workspaces().byRealRoot(real.toString()))))
        .orElseThrow(() -> new RequestException(RequestException.Problem.WORKSPACE,
            "workspace " + workspace + " is not tracked: run turndiff track --workspace " + workspace));
    if (!isTracked(stored.id())) {
      throw new RequestException(RequestException.Problem.WORKSPACE,
          "workspace " + workspace + " is not tracked: run turndiff track --workspace " + workspace);
    }
    return stored;
  }

  private TrackingOptions options(long workspaceId) {
    return store.read(tx -> tx.indexes().tracked(workspaceId))
        .map(tracked -> new TrackingOptions(tracked.maxFiles(), tracked.maxBytes()))
        .orElse(TrackingOptions.DEFAULTS);
  }

  private static TrackSummary summary(WorkspaceBoundary boundary, Comparison comparison, long elapsed) {
    return new TrackSummary(boundary.rootReal().toString(), comparison.scan().files(), comparison.scan().bytes(),
        comparison.contentRead(), comparison.scan().partial(), comparison.scan().leftOut(),
        comparison.scan().unlisted(), elapsed);
  }

  // ---- the index, cached per process and checked against its version ---------------------------------

  /** The index and its version, read in one transaction (0 and empty when the workspace is not tracked). */
  private CachedIndex index(long workspaceId) {
    Optional<Long> version = store.read(tx -> tx.indexes().version(workspaceId));
    if (version.isEmpty()) {
      return CachedIndex.of(0, Map.of(), Optional.empty());
    }
    CachedIndex cached = cache.get(workspaceId);
    if (cached != null && cached.version() == version.get()) {
      return cached;
    }
    CachedIndex read = store.read(tx -> CachedIndex.of(tx.indexes().version(workspaceId).orElse(0L),
        tx.indexes().entries(workspaceId), tx.indexDirectories().known(workspaceId)
            ? Optional.of(tx.indexDirectories().all(workspaceId)) : Optional.empty()));
    cache.put(workspaceId, read);
    return read;
  }

  private long indexedAt(long workspaceId) {
    return store.read(tx -> tx.indexes().tracked(workspaceId)).map(TrackedWorkspace::indexedAtNanos).orElse(0L);
  }

  // ---- scanning ---------------------------------------------------------------------------------------

  /** A path the scan found whose stat does not prove it unchanged since the index: to be read. */
  private record Candidate(ScannedEntry entry, Optional<IndexEntry> indexed) {
  }

  /**
   * What a scan found against the index: the paths to read, the indexed paths it did not see, what it did not
   * look at, and what the budgets left out.
   */
  record Scan(List<Candidate> candidates, List<IndexEntry> unseen, Set<WorkspacePath> notCovered,
              Set<WorkspacePath> ignored, List<WorkspacePath> leftOut, List<String> unlisted, int files, long bytes,
              boolean partial, long startedAtNanos, Map<WorkspacePath, Integer> directories) {
  }

  /**
   * Walks the tree and compares each path with the index as it is found: a path whose stat matches its entry
   * (and is not racy) is only marked seen, so an unchanged tree costs a listing and a lookup per path.
   */
  private Scan scan(WorkspaceBoundary boundary, TrackingOptions options, CachedIndex index, long indexedAt,
                    GitIndexes git) {
    long startedAt = nowNanos();
    IgnoreRules rules = new IgnoreRules(storeFilesIn(boundary), git, index::holdsWithin);
    List<Candidate> candidates = new ArrayList<>();
    java.util.BitSet seen = new java.util.BitSet(index.entries().size());
    Set<WorkspacePath> notCovered = new HashSet<>();
    Set<WorkspacePath> ignored = new HashSet<>();
    List<WorkspacePath> leftOut = new ArrayList<>();
    List<String> unlisted = new ArrayList<>();
    Map<WorkspacePath, Integer> directories = new HashMap<>();
    long[] counts = new long[2];
    boolean[] exceeded = new boolean[1];
    boundary.scan(new ScanVisitor() {
      @Override
      public Set<String> interesting() {
        return IgnoreRules.INTERESTING;
      }

      @Override
      public void entering(Optional<WorkspacePath> directory, java.util.Set<String> ignoreFilesPresent) {
        rules.entering(directory, boundary, ignoreFilesPresent);
      }

      @Override
      public Descend directory(WorkspacePath directory) {
        if (rules.ignored(directory, true)) {
          notCovered.add(directory);
          return Descend.IGNORE;
        }
        if (exceeded[0]) {
          notCovered.add(directory);
          leftOut.add(directory);
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
        if (rules.ignored(path, false)) {
          ignored.add(path);
          return true;
        }
        return false;
      }

      @Override
      public void found(ScannedEntry entry) {
        long size = entry.type() == FileType.REGULAR ? entry.size() : 0;
        if (exceeded[0] || counts[0] + 1 > options.maxFiles() || counts[1] + size > options.maxBytes()) {
          if (!exceeded[0]) {
            exceeded[0] = true;
            List<byte[]> parent = entry.path().parentComponents();
            WorkspacePath partialDirectory = parent.isEmpty() ? entry.path() : WorkspacePath.ofComponents(parent);
            leftOut.add(partialDirectory);
            notCovered.add(partialDirectory);
          }
          return;
        }
        counts[0]++;
        counts[1] += size;
        Slot slot = index.slots().get(entry.path());
        if (slot == null) {
          candidates.add(new Candidate(entry, Optional.empty()));
          return;
        }
        seen.set(slot.number());
        IndexEntry old = slot.entry();
        // another mount is never read: its stat is all there is to compare
        boolean unchanged = entry.otherMount() ? old.stat().equals(statOf(entry))
            : statOf(entry).provesUnchangedSince(old.stat(), indexedAt);
        if (!unchanged) {
          candidates.add(new Candidate(entry, Optional.of(old)));
        }
      }

      @Override
      public void unlisted(WorkspacePath directory, String why) {
        notCovered.add(directory);
        unlisted.add(directory.display() + ": " + why);
      }
    });
    List<IndexEntry> unseen = new ArrayList<>();
    for (int i = seen.nextClearBit(0); i < index.entries().size(); i = seen.nextClearBit(i + 1)) {
      unseen.add(index.entries().get(i));
    }
    return new Scan(candidates, unseen, notCovered, ignored, leftOut, unlisted, (int) counts[0], counts[1],
        exceeded[0], startedAt, directories);
  }

  /** The store's files, when the store lives inside the workspace: never indexed. */
  private Set<WorkspacePath> storeFilesIn(WorkspaceBoundary boundary) {
    Set<WorkspacePath> paths = new HashSet<>();
    Path database = store.file();
    for (Path root : List.of(boundary.rootReal(), boundary.rootGiven())) {
      Path parent = database.toAbsolutePath().getParent();
      for (String name : List.of(database.getFileName().toString(), database.getFileName() + "-wal",
          database.getFileName() + "-shm", database.getFileName() + "-journal", "turndiff.token")) {
        Path file = parent.resolve(name);
        if (file.startsWith(root) && !file.equals(root)) {
          paths.add(WorkspacePath.of(root.relativize(file).toString()));
        }
      }
    }
    return paths;
  }

  private static long nowNanos() {
    Instant now = Instant.now();
    return now.getEpochSecond() * 1_000_000_000L + now.getNano();
  }

  // ---- comparing the tree with the index --------------------------------------------------------------

  /**
   * What the tree holds against the index: the changes, the index entries to write and remove, and the
   * scan. With {@code storeContent}, new content goes to the blob table as it is read.
   */
  public record Comparison(Scan scan, List<PathChange> changes, List<IndexEntry> upserts,
                           List<WorkspacePath> removals, int contentRead, long indexVersion,
                           Optional<Map<WorkspacePath, Integer>> directoriesBefore) {
  }

  private Comparison compare(long workspaceId, WorkspaceBoundary boundary, TrackingOptions options,
                             boolean storeContent, Progress progress) {
    CachedIndex index = index(workspaceId);
    Scan scan = scan(boundary, options, index, indexedAt(workspaceId),
        gitIndexes.computeIfAbsent(workspaceId, id -> new GitIndexes()));
    List<ScannedEntry> toRead = new ArrayList<>();
    List<IndexEntry> upserts = new ArrayList<>();
    for (Candidate candidate : scan.candidates()) {
      if (candidate.entry().otherMount()) {
        upserts.add(metadataOnly(candidate.entry(), Reason.ESCAPES_WORKSPACE));
      } else {
        toRead.add(candidate.entry());
      }
    }
    Map<WorkspacePath, Observation> read = read(boundary, toRead, storeContent, progress);
    List<PathChange> changes = new ArrayList<>();
    for (Candidate candidate : scan.candidates()) {
      ScannedEntry entry = candidate.entry();
      if (entry.otherMount()) {
        continue;
      }
      Observation observation = read.get(entry.path());
      Optional<IndexEntry> old = candidate.indexed();
      Optional<IndexEntry> now = entryOf(observation, entry);
      if (now.isEmpty()) {
        // gone between the listing and the read: a deletion if it was indexed
        old.ifPresent(gone -> changes.add(new PathChange(entry.path(), ChangeKind.DELETED, Optional.of(gone),
            Optional.empty())));
        continue;
      }
      upserts.add(now.get());
      if (old.isEmpty()) {
        changes.add(new PathChange(entry.path(), ChangeKind.ADDED, Optional.empty(), Optional.of(observation)));
      } else if (!sameState(old.get(), now.get())) {
        changes.add(new PathChange(entry.path(), old.get().type() != now.get().type() ? ChangeKind.TYPE_CHANGED
            : ChangeKind.MODIFIED, old, Optional.of(observation)));
      }
    }
    List<WorkspacePath> removals = new ArrayList<>();
    for (IndexEntry old : scan.unseen()) {
      if (!covered(old.path(), scan.notCovered())) {
        continue;
      }
      removals.add(old.path());
      if (!scan.ignored().contains(old.path())) {
        changes.add(new PathChange(old.path(), ChangeKind.DELETED, Optional.of(old), Optional.empty()));
      }
    }
    changes.sort((a, b) -> a.path().compareTo(b.path()));
    return new Comparison(scan, changes, upserts, removals, read.size(), index.version(), index.directories());
  }

  private static boolean covered(WorkspacePath path, Set<WorkspacePath> notCovered) {
    if (notCovered.isEmpty()) {
      return true;
    }
    for (WorkspacePath directory : notCovered) {
      if (path.isWithin(directory)) {
        return false;
      }
    }
    return true;
  }

  /** Same content, type, mode and link text: a stat that moved without a change (a touch). */
  private static boolean sameState(IndexEntry old, IndexEntry now) {
    return old.type() == now.type() && old.stat().mode() == now.stat().mode()
        && old.linkTarget().equals(now.linkTarget())
        && old.sha256().equals(now.sha256()) && old.reason().equals(now.reason())
        && (old.sha256().isPresent() || old.linkTarget().isPresent() || old.stat().equals(now.stat()));
  }

  /** The stat a scan found, as the index keeps it. */
  static StatProof statOf(ScannedEntry entry) {
    return new StatProof(entry.type(), entry.size(), entry.mtimeNanos(), entry.ctimeNanos(), entry.inode(),
        entry.mode(), entry.nlink());
  }

  private static IndexEntry metadataOnly(ScannedEntry entry, Reason reason) {
    return new IndexEntry(entry.path(), statOf(entry), entry.linkTarget(), Optional.empty(), Optional.empty(),
        Optional.of(reason));
  }

  /**
   * The index entry for what was read; the change time is the scan's only if the read saw the same inode,
   * size and mtime (otherwise 0, which no stat matches: the next scan reads the file again).
   */
  private static Optional<IndexEntry> entryOf(Observation observation, ScannedEntry scanned) {
    Snapshot snapshot = observation.snapshot();
    if (snapshot.presence() == Presence.ABSENT) {
      return Optional.empty();
    }
    if (snapshot.presence() == Presence.UNKNOWN || snapshot.metadata().isEmpty()) {
      return Optional.of(metadataOnly(scanned, snapshot.reason().orElse(Reason.UNREADABLE)));
    }
    FileMetadata metadata = snapshot.metadata().get();
    boolean sameInode = metadata.inode() == scanned.inode() && metadata.size() == scanned.size()
        && metadata.mtimeNanos() == scanned.mtimeNanos();
    return Optional.of(new IndexEntry(scanned.path(), StatProof.of(metadata, sameInode ? scanned.ctimeNanos() : 0),
        snapshot.linkTarget(), snapshot.sha256(), snapshot.storedContent(), snapshot.reason()));
  }

  /** Reads the entries through the boundary, in parallel; stores new content in batches when asked. */
  private Map<WorkspacePath, Observation> read(WorkspaceBoundary boundary, List<ScannedEntry> entries,
                                               boolean storeContent, Progress progress) {
    Map<WorkspacePath, Observation> read = new HashMap<>();
    if (entries.isEmpty()) {
      return read;
    }
    int threads = Math.max(1, Math.min(Runtime.getRuntime().availableProcessors(), entries.size() / 64 + 1));
    try (ExecutorService pool = Executors.newFixedThreadPool(threads)) {
      List<Future<Map.Entry<Observation, Optional<EncodedBlob>>>> futures = new ArrayList<>(entries.size());
      for (ScannedEntry entry : entries) {
        futures.add(pool.submit(() -> {
          Observation observation = boundary.observeExact(entry.path());
          Optional<EncodedBlob> blob = Optional.empty();
          if (storeContent && observation.content().isPresent()) {
            blob = Optional.of(BlobEncoder.encode(observation.snapshot().storedContent().orElseThrow(),
                observation.content().get()));
          }
          return Map.entry(observation, blob);
        }));
      }
      List<EncodedBlob> batch = new ArrayList<>(BLOB_BATCH);
      for (int i = 0; i < futures.size(); i++) {
        Map.Entry<Observation, Optional<EncodedBlob>> result = futures.get(i).get();
        read.put(entries.get(i).path(), result.getKey());
        result.getValue().ifPresent(batch::add);
        if (batch.size() >= BLOB_BATCH) {
          storeBlobs(batch);
          progress.read(i + 1, futures.size());
        }
      }
      storeBlobs(batch);
      progress.read(futures.size(), futures.size());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while reading the workspace", e);
    } catch (ExecutionException e) {
      throw e.getCause() instanceof RuntimeException runtime ? runtime : new IllegalStateException(e.getCause());
    }
    return read;
  }

  private void storeBlobs(List<EncodedBlob> batch) {
    if (batch.isEmpty()) {
      return;
    }
    List<EncodedBlob> copy = List.copyOf(batch);
    batch.clear();
    store.write(tx -> {
      copy.forEach(tx.blobs()::put);
      return null;
    });
  }

  /**
   * Writes the index after a comparison, unless another scan wrote it since the comparison read it (two turns
   * finishing in one workspace at once): then false, and nothing is written; the caller compares again.
   */
  private boolean write(StoreTransaction tx, long workspaceId, Comparison comparison, TrackingOptions options) {
    if (tx.indexes().version(workspaceId).orElse(0L) != comparison.indexVersion()) {
      return false;
    }
    Scan scan = comparison.scan();
    tx.indexes().write(workspaceId, scan.startedAtNanos(), scan.partial(), options.maxFiles(), options.maxBytes(),
        comparison.upserts(), comparison.removals(), Optional.of(scan.leftOut()));
    Map<WorkspacePath, Integer> before = comparison.directoriesBefore().orElse(Map.of());
    Map<WorkspacePath, Integer> changed = new HashMap<>();
    scan.directories().forEach((path, mode) -> {
      if (!mode.equals(before.get(path))) {
        changed.put(path, mode);
      }
    });
    List<WorkspacePath> gone = before.keySet().stream()
        .filter(path -> !scan.directories().containsKey(path) && covered(path, scan.notCovered())).toList();
    tx.indexDirectories().write(workspaceId, changed, gone);
    cache.remove(workspaceId);
    return true;
  }

  /**
   * The directories a comparison saw appear, go or change mode since the index, and those above
   * {@code paths} (the changes a turn records), each as the index had it and as the scan found it; none when
   * the index was written before directories were indexed. Directories the scan did not cover are left out.
   */
  public static List<DirectoryDelta> directories(Comparison comparison, java.util.Collection<WorkspacePath> paths) {
    if (comparison.directoriesBefore().isEmpty()) {
      return List.of();
    }
    Map<WorkspacePath, Integer> before = comparison.directoriesBefore().get();
    Map<WorkspacePath, Integer> now = comparison.scan().directories();
    Set<WorkspacePath> notCovered = comparison.scan().notCovered();
    java.util.TreeSet<WorkspacePath> directories = new java.util.TreeSet<>();
    for (WorkspacePath path : paths) {
      List<byte[]> parents = path.parentComponents();
      for (int depth = 1; depth <= parents.size(); depth++) {
        directories.add(WorkspacePath.ofComponents(parents.subList(0, depth)));
      }
    }
    now.forEach((path, mode) -> {
      if (!mode.equals(before.get(path))) {
        directories.add(path);  // appeared, or its mode changed (a shell's chmod 700 dir)
      }
    });
    before.keySet().stream().filter(path -> !now.containsKey(path)).forEach(directories::add);
    List<DirectoryDelta> deltas = new ArrayList<>();
    for (WorkspacePath directory : directories) {
      if (covered(directory, notCovered)) {
        deltas.add(new DirectoryDelta(state(directory, before), state(directory, now)));
      }
    }
    return deltas;
  }

  private static DirectoryState state(WorkspacePath directory, Map<WorkspacePath, Integer> modes) {
    Integer mode = modes.get(directory);
    return mode == null ? DirectoryState.absent(directory) : DirectoryState.present(directory, mode);
  }

  /** The before-state a change found by a scan had: the indexed state, or a known absence. */
  public static Snapshot before(PathChange change, WorkspaceBoundary boundary, Instant at) {
    return change.indexed().map(entry -> entry.toSnapshot(boundary.kind(), at))
        .orElseGet(() -> Snapshot.absent(change.path(), boundary.kind(), at));
  }
}
