package io.turndiff.capture.track;

import io.turndiff.boundary.Observation;
import io.turndiff.boundary.Portability;
import io.turndiff.boundary.ScannedEntry;
import io.turndiff.boundary.TreeWatch;
import io.turndiff.boundary.WorkspaceBoundary;
import io.turndiff.boundary.WorkspaceRoot;
import io.turndiff.capture.workspace.WorkspaceHandles;
import io.turndiff.model.ChangeKind;
import io.turndiff.model.DetectedBy;
import io.turndiff.model.IndexEntry;
import io.turndiff.model.RequestException;
import io.turndiff.model.Sha256;
import io.turndiff.model.Snapshot;
import io.turndiff.model.StatProof;
import io.turndiff.model.TurnKind;
import io.turndiff.model.WorkspacePath;
import io.turndiff.store.EncodedBlob;
import io.turndiff.store.Store;
import io.turndiff.store.StoreTransaction;
import io.turndiff.store.StoredTurn;
import io.turndiff.store.StoredWorkspace;
import io.turndiff.store.TrackedWorkspace;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

/**
 * Keeps the index of tracked workspaces: every path that is not ignored, with its stat (including
 * the change time) and its content hash, and the content itself as a baseline in the blob table, so
 * that changes made by shell commands (which no tool announces) can be found, diffed and rewound.
 *
 * <p>Like git's index: building it reads every file once; after that a scan ({@link TreeScan})
 * lists the tree and reads again ({@link ContentReader}) only paths whose stat does not prove them
 * unchanged ({@link StatProof}: every field equal, and not racy), and {@link IndexComparison} turns
 * what was read into changes and index entries. This class composes them: track, status, refresh, a
 * turn's changes and their absorption into the index, and the versioned write that lets two scans
 * of one workspace race safely (the later one compares again). The design: {@code
 * docs/tracking.md}.
 */
public final class Tracker {

  private static final int MAX_ATTEMPTS = 5;

  private final Store store;
  private final WorkspaceHandles workspaces;
  private final IndexCache indexes;
  private final ContentReader contents;
  private final Watching watching;
  private final WatchChecks checks;

  /** Per workspace: what git tracks in it, read again only when a git index changes. */
  private final Map<Long, GitIndexes> gitIndexes = new ConcurrentHashMap<>();

  public Tracker(Store store, WorkspaceHandles workspaces) {
    this(store, workspaces, WatchOptions.OFF);
  }

  /** A tracker that watches its workspaces' trees as {@code watch} says (the service's does). */
  public Tracker(Store store, WorkspaceHandles workspaces, WatchOptions watch) {
    this.store = store;
    this.workspaces = workspaces;
    this.indexes = new IndexCache(store);
    this.contents = new ContentReader(store);
    this.watching = new Watching(watch);
    this.checks = new WatchChecks(this::checkBaseline, watching::checkLater, this::checkFailed);
  }

  /** What the watcher did since this process started (all zero when it does not watch). */
  public WatchStatus watchStatus() {
    return watching.status();
  }

  /**
   * Whether this tracker watches its workspaces' trees (the service's does, outside the posix
   * mode): a scan then costs the names that changed, so each shell call's Pre and Post hook may
   * write the index, and the calls in flight are known through every interval a scan's change is
   * found in.
   */
  public boolean watches() {
    return watching.enabled() && Portability.current().watches();
  }

  /** Stops watching (the service's end). */
  public void closeWatches() {
    checks.close();
    watching.close();
  }

  // ---- the public operations
  // --------------------------------------------------------------------------

  /** Told how far reading the tree has come (files read, files to read). */
  @FunctionalInterface
  public interface Progress {
    Progress NONE = (done, total) -> {};

    void read(int done, int total);
  }

  /**
   * Builds (or rebuilds) the index of {@code workspace}, and tracks it from now on. Rebuilding is
   * refused while agent turns are open in the workspace: it would take what changed since the index
   * was last written into the new index without recording it in the turns that could have made it
   * (a turn's begin, a shell call's hooks and a finish place such changes: {@code CandidateTurns}).
   * Refused rather than placed here: this tracker does not know the calls in flight nor records
   * changes in turns, and a rebuild (new budgets, a damaged index) has no reason to run mid-turn.
   */
  public TrackSummary track(Path workspace, TrackingOptions options) {
    return track(workspace, options, Progress.NONE);
  }

  public TrackSummary track(Path workspace, TrackingOptions options, Progress progress) {
    long started = System.nanoTime();
    WorkspaceBoundary opened = workspaces.openGiven(workspace);
    long workspaceId;
    try {
      workspaceId =
          store.write(
              tx ->
                  tx.workspaces()
                      .register(
                          workspace.toString(),
                          opened.rootReal().toString(),
                          opened.rootDevice(),
                          opened.rootInode())
                      .id());
    } catch (RuntimeException e) {
      opened.close();
      throw e;
    }
    TrackingOptions kept = keepingIgnoredFiles(workspaceId, options);
    try (WorkspaceHandles.Lease lease = workspaces.adopt(workspaceId, opened)) {
      Comparison comparison =
          compareAndWrite(
              workspaceId, lease.boundary(), kept, progress, Watching.Scope.TRACK, true);
      return summary(lease.boundary(), comparison, kept, System.nanoTime() - started);
    }
  }

  /** What changed since the index was written; nothing is written. */
  public WorkspaceStatus status(Path workspace) {
    long started = System.nanoTime();
    StoredWorkspace stored = trackedWorkspace(workspace);
    try (WorkspaceHandles.Lease lease = workspaces.borrow(stored.id())) {
      WorkspaceBoundary boundary = lease.boundary();
      TrackingOptions options = options(stored.id());
      Comparison comparison =
          compare(stored.id(), boundary, options, false, Progress.NONE, Watching.Scope.STATUS);
      return new WorkspaceStatus(
          boundary.rootReal().toString(),
          comparison.changes(),
          comparison.scan().partial(),
          comparison.scan().leftOut(),
          System.nanoTime() - started,
          openTurnsOf(stored.id(), comparison.changes()),
          IgnoredFilesSeen.of(comparison.scan(), options.ignoredMaxBytes()));
    }
  }

  /**
   * The open agent turns each change could belong to: every agent turn open in the workspace (a
   * finish records it in each of them, as shared), the one whose tool call named its path first
   * (another session's shell could have written the path too).
   */
  private Map<WorkspacePath, List<StoredTurn>> openTurnsOf(
      long workspaceId, List<PathChange> changes) {
    return store.read(
        tx -> {
          List<StoredTurn> open = openAgentTurns(tx, workspaceId);
          Map<WorkspacePath, StoredTurn> named = new HashMap<>();
          for (StoredTurn turn : open) {
            tx.fileChanges().ofTurn(turn.id()).stream()
                .filter(change -> change.detectedBy() == DetectedBy.SNAPSHOT)
                .forEach(change -> named.putIfAbsent(change.path(), turn));
          }
          Map<WorkspacePath, List<StoredTurn>> owners = new HashMap<>();
          for (PathChange change : changes) {
            StoredTurn namer = named.get(change.path());
            List<StoredTurn> could = new ArrayList<>(open);
            if (namer != null) {
              could.remove(namer);
              could.addFirst(namer);
            }
            if (!could.isEmpty()) {
              owners.put(change.path(), could);
            }
          }
          return owners;
        });
  }

  public boolean isTracked(long workspaceId) {
    // without folding: a fold writes no index, and a shell call's Pre and Post ask this
    return store.readWithoutFolding(tx -> tx.indexes().version(workspaceId)).isPresent();
  }

  /**
   * Whether the directory {@code workspace} names is a tracked workspace of this machine, however
   * the name is spelled (through a symlink, with {@code ..}): the store knows a workspace by its
   * real root, as {@link #track} registers it. False for a name the workspace policy refuses
   * (tracking it says why).
   */
  public boolean isTracked(Path workspace) {
    return workspaces
        .realPathOf(workspace)
        .map(
            real ->
                store.read(
                    tx ->
                        tx.workspaces()
                            .byRealRoot(real.toString())
                            .flatMap(stored -> tx.indexes().version(stored.id()))
                            .isPresent()))
        .orElse(false);
  }

  /**
   * Brings the index up to the workspace's state now (a turn's before-state): returns what had
   * changed.
   */
  public List<PathChange> refresh(long workspaceId) {
    try (WorkspaceHandles.Lease lease = workspaces.borrow(workspaceId)) {
      return compareAndWrite(
              workspaceId,
              lease.boundary(),
              options(workspaceId),
              Progress.NONE,
              Watching.Scope.WRITE,
              false)
          .changes();
    }
  }

  private Comparison compareAndWrite(
      long workspaceId,
      WorkspaceBoundary boundary,
      TrackingOptions options,
      Progress progress,
      Watching.Scope scope,
      boolean refusedWhileTurnsAreOpen) {
    for (int attempt = 1; ; attempt++) {
      Comparison comparison = compare(workspaceId, boundary, options, true, progress, scope);
      boolean written =
          store.write(
              tx -> {
                if (refusedWhileTurnsAreOpen) {
                  refuseWhileTurnsAreOpen(tx, workspaceId, boundary);
                }
                return write(tx, workspaceId, comparison, options)
                    && keptOfIgnored(tx, workspaceId, options);
              });
      if (written) {
        return comparison;
      }
      if (attempt >= MAX_ATTEMPTS) {
        throw new RequestException(
            RequestException.Problem.WRONG_STATE,
            "the index of workspace "
                + boundary.rootReal()
                + " kept being rewritten by other scans: try again");
      }
    }
  }

  /**
   * Refuses, within the transaction that would write the index, to rebuild the index of a tracked
   * workspace while agent turns are open in it (a first index has nothing to take from them).
   */
  private static void refuseWhileTurnsAreOpen(
      StoreTransaction tx, long workspaceId, WorkspaceBoundary boundary) {
    if (tx.indexes().version(workspaceId).isEmpty()) {
      return;
    }
    List<String> open =
        openAgentTurns(tx, workspaceId).stream()
            .map(turn -> "turn " + turn.externalId() + " of session " + turn.sessionExternalId())
            .toList();
    if (!open.isEmpty()) {
      throw new RequestException(
          RequestException.Problem.WRONG_STATE,
          "workspace "
              + boundary.rootReal()
              + " is tracked and has open turns ("
              + String.join(", ", open)
              + "): tracking it again now would take their changes into the index without"
              + " recording them in any turn; finish the turns first, then track again");
    }
  }

  private static List<StoredTurn> openAgentTurns(StoreTransaction tx, long workspaceId) {
    return tx.turns().open().stream()
        .filter(turn -> turn.workspaceId() == workspaceId)
        .filter(turn -> turn.kind() == TurnKind.AGENT)
        .toList();
  }

  /**
   * What changed since the index was written, its new content compressed and, but for the last
   * batch ({@link Comparison#unstoredContents}: all of a hook's few files), stored as blobs; {@link
   * #absorb} then stores that batch and writes the index to match, inside the caller's transaction
   * (a turn's begin or finish).
   */
  public Comparison changes(long workspaceId) {
    try (WorkspaceHandles.Lease lease = workspaces.borrow(workspaceId)) {
      return compare(
          workspaceId,
          lease.boundary(),
          options(workspaceId),
          true,
          Progress.NONE,
          Watching.Scope.WRITE);
    }
  }

  /**
   * The paths among {@code paths} that git ignores in the workspace {@code workspaceId}, judged by
   * the rules its scans use ({@link GitIgnoredPaths}) and the git indexes this tracker keeps of it:
   * the paths a turn's tool calls named, whose records are marked as the scan's are. Reads only the
   * ignore files and {@code .git} entries of the directories above the paths.
   */
  public Set<WorkspacePath> ignoredByGit(
      long workspaceId, WorkspaceBoundary boundary, Collection<WorkspacePath> paths) {
    if (paths.isEmpty()) {
      return Set.of();
    }
    GitIgnoredPaths judge = new GitIgnoredPaths(boundary, gitIndexes(workspaceId));
    return paths.stream().filter(judge::ignored).collect(Collectors.toUnmodifiableSet());
  }

  /**
   * Writes the index after {@link #changes}, in the caller's transaction, with the scan's last
   * contents ({@link Comparison#unstoredContents}): before any row of the caller's that refers to
   * them. False (nothing written) when another scan wrote the index since, and the caller must
   * compare again.
   */
  public boolean absorb(StoreTransaction tx, long workspaceId, Comparison comparison) {
    return write(tx, workspaceId, comparison, options(workspaceId));
  }

  private StoredWorkspace trackedWorkspace(Path workspace) {
    Path absolute = workspace.toAbsolutePath().normalize();
    StoredWorkspace stored =
        store
            .read(
                tx ->
                    tx.workspaces()
                        .byRealRoot(absolute.toString())
                        .or(() -> tx.workspaces().byGivenRoot(absolute.toString())))
            .or(
                () ->
                    WorkspaceRoot.real(absolute)
                        .flatMap(
                            real -> store.read(tx -> tx.workspaces().byRealRoot(real.toString()))))
            .orElseThrow(
                () ->
                    new RequestException(
                        RequestException.Problem.WORKSPACE,
                        "workspace "
                            + workspace
                            + " is not tracked: run turndiff track --workspace "
                            + workspace));
    if (!isTracked(stored.id())) {
      throw new RequestException(
          RequestException.Problem.WORKSPACE,
          "workspace "
              + workspace
              + " is not tracked: run turndiff track --workspace "
              + workspace);
    }
    return stored;
  }

  private TrackingOptions options(long workspaceId) {
    return options(store.read(tx -> tx.indexes().tracked(workspaceId)));
  }

  private static TrackingOptions options(Optional<TrackedWorkspace> tracked) {
    return tracked
        .map(
            workspace ->
                new TrackingOptions(
                    workspace.maxFiles(),
                    workspace.maxBytes(),
                    Optional.of(IgnoredFiles.fromCode(workspace.ignoredFiles())),
                    Optional.of(workspace.ignoredMaxBytes())))
        .orElse(TrackingOptions.DEFAULTS);
  }

  /**
   * What {@code track} keeps of ignored files: as asked; else as the workspace kept them when it
   * was tracked since V18; else the store's default. A local store keeps small ignored files whole
   * (they are this user's, in this user's file); a shared one, which other people read, keeps their
   * stat and hash only unless asked ({@code track --ignored-files small}): a {@code .env} holds
   * secrets. Their size cap likewise: as asked, else the workspace's, else 5 MiB.
   */
  private TrackingOptions keepingIgnoredFiles(long workspaceId, TrackingOptions asked) {
    Optional<TrackedWorkspace> tracked = store.read(tx -> tx.indexes().tracked(workspaceId));
    TrackingOptions capped =
        asked.ignoredCap().isPresent()
            ? asked
            : asked.withIgnoredMaxBytes(
                tracked
                    .map(TrackedWorkspace::ignoredMaxBytes)
                    .orElse(TrackingOptions.IGNORED_MAX_BYTES));
    if (asked.ignoredFiles().isPresent()) {
      return capped;
    }
    IgnoredFiles storeDefault =
        store.localFile().isPresent() ? IgnoredFiles.SMALL : IgnoredFiles.METADATA;
    IgnoredFiles kept =
        tracked
            .filter(workspace -> !workspace.ignoredFiles().equals(IgnoredFiles.NONE.code()))
            .map(workspace -> IgnoredFiles.fromCode(workspace.ignoredFiles()))
            .orElse(storeDefault);
    return capped.withIgnoredFiles(kept);
  }

  private static TrackSummary summary(
      WorkspaceBoundary boundary, Comparison comparison, TrackingOptions options, long elapsed) {
    return new TrackSummary(
        boundary.rootReal().toString(),
        comparison.scan().files(),
        comparison.scan().bytes(),
        comparison.contentRead(),
        comparison.scan().partial(),
        comparison.scan().leftOut(),
        comparison.scan().unlisted(),
        elapsed,
        IgnoredFilesSeen.of(comparison.scan(), options.ignoredMaxBytes()));
  }

  // ---- comparing the tree with the index
  // --------------------------------------------------------------

  /**
   * What the tree holds against the index: the changes, the index entries to write and remove, and
   * the scan. With {@code storeContent}, new content goes to the blob table as it is read, but for
   * the last batch ({@code unstoredContents}: all of a hook's few files), which the transaction
   * that writes the index stores ({@link #absorb}); {@code storedContents} are the hashes of the
   * batches stored as they were read.
   */
  public record Comparison(
      Scan scan,
      List<PathChange> changes,
      List<IndexEntry> upserts,
      List<WorkspacePath> removals,
      int contentRead,
      long indexVersion,
      Optional<DirectoryModes> directoriesBefore,
      OptionalLong watchMark,
      List<EncodedBlob> unstoredContents,
      Set<Sha256> storedContents) {

    /**
     * Every content the scan compressed: stored already, or stored by {@link #absorb} before the
     * caller's rows. A begin or a finish that records a change to one of them refers to it by its
     * hash and does not compress it again ({@code ChangeRecorder}'s {@code storedFirst}). A batch
     * stored earlier and collected before the index is written (a scan longer than the collection's
     * grace period) fails the transaction at the index, whose entries refer to it by a foreign key:
     * the caller's rows are never written over a content the store lacks.
     */
    public Set<Sha256> contentsCompressed() {
      Set<Sha256> compressed = new HashSet<>(storedContents);
      unstoredContents.forEach(blob -> compressed.add(blob.sha256()));
      return Collections.unmodifiableSet(compressed);
    }
  }

  /**
   * What one scan of a workspace works with: the index it compares against (the one {@link
   * IndexCache} holds), the boundary it reads through, the workspace's budgets, whether new content
   * is stored (the last batch by the index's transaction), who hears of its progress, and what the
   * scan is for.
   */
  private record ScanInputs(
      long workspaceId,
      IndexCache.Index index,
      WorkspaceBoundary boundary,
      TrackingOptions options,
      boolean storeContent,
      Progress progress,
      Watching.Scope scope) {

    /**
     * A check's, off the hooks' path: against the baseline's index, storing no content, read as a
     * status reads ({@link Watching.Scope#STATUS} trains no dictionary).
     */
    static ScanInputs ofCheck(
        long workspaceId,
        IndexCache.Index index,
        WorkspaceBoundary boundary,
        TrackingOptions options) {
      return new ScanInputs(
          workspaceId, index, boundary, options, false, Progress.NONE, Watching.Scope.STATUS);
    }
  }

  /**
   * {@link #scanAndCompare} against the index held now; a status's result with a watch mark becomes
   * the status baseline of the next status ({@link Watching#statusSeen}): the names it found
   * different from the index.
   */
  private Comparison compare(
      long workspaceId,
      WorkspaceBoundary boundary,
      TrackingOptions options,
      boolean storeContent,
      Progress progress,
      Watching.Scope scope) {
    ScanInputs in =
        new ScanInputs(
            workspaceId, indexes.of(workspaceId), boundary, options, storeContent, progress, scope);
    Comparison comparison = scanAndCompare(in);
    if (scope == Watching.Scope.STATUS && comparison.watchMark().isPresent()) {
      Set<WorkspacePath> differing = new HashSet<>(comparison.scan().ignoredOverCap());
      comparison.changes().forEach(change -> differing.add(change.path()));
      watching.statusSeen(workspaceId, in.index(), comparison.watchMark().getAsLong(), differing);
    }
    return comparison;
  }

  /**
   * The scan ({@link TreeScan}, against the index {@link IndexCache} holds), the reading of what
   * its stat does not prove unchanged ({@link ContentReader}), and the comparison of what was read
   * ({@link IndexComparison}).
   */
  private Comparison scanAndCompare(ScanInputs in) {
    Watching.Plan plan = watching.plan(in.workspaceId(), in.index(), in.scope());
    if (!plan.check()) {
      return scan(in, plan);
    }
    try {
      return scan(in, plan);
    } finally {
      // a status's check in line is over: the baselines written from now on may forget the
      // events after its mark
      watching.checkDone(in.workspaceId(), plan.mark().orElseThrow());
    }
  }

  /** {@link #scanAndCompare} as {@code plan} says: the changed names or the whole tree. */
  private Comparison scan(ScanInputs in, Watching.Plan plan) {
    GitIndexes git = gitIndexes(in.workspaceId());
    Optional<Comparison> watched =
        plan.dirty().isPresent() ? watchedComparison(in, git, plan) : Optional.empty();
    if (plan.dirty().isPresent() && watched.isEmpty()) {
      watching.overBudget();
    }
    if (watched.isEmpty()) {
      return wholeComparison(in, git, plan.watch(), plan.mark());
    }
    if (!plan.check()) {
      return watched.get();
    }
    // a status's check, in line (Watching): the whole tree, compared with what the watched scan
    // found
    watching.checkStarting();
    Comparison full = wholeComparison(in, git, plan.watch(), plan.mark());
    if (!suspectedMisses(in, plan, watched.get(), full)) {
      return watched.get();
    }
    // no baseline comes of this scan: the next one walks the whole tree again
    return new Comparison(
        full.scan(),
        full.changes(),
        full.upserts(),
        full.removals(),
        full.contentRead(),
        full.indexVersion(),
        full.directoriesBefore(),
        OptionalLong.empty(),
        full.unstoredContents(),
        full.storedContents());
  }

  private GitIndexes gitIndexes(long workspaceId) {
    return gitIndexes.computeIfAbsent(workspaceId, id -> new GitIndexes());
  }

  /**
   * The names {@code plan} says had an event since the baseline (and every hardlinked file), looked
   * at and compared with the index; empty when they were more than the budget allows, which only a
   * whole walk can judge.
   */
  private Optional<Comparison> watchedComparison(
      ScanInputs in, GitIndexes git, Watching.Plan plan) {
    return TreeScan.walkChanged(
            in.boundary(),
            store.localFile(),
            git,
            in.options(),
            in.index(),
            withHardlinked(plan.dirty().orElseThrow(), in.index()),
            plan.watch().orElseThrow())
        .map(changed -> compared(in, changed, plan.mark()));
  }

  /**
   * The whole tree walked and compared with the index; the walk adds a watch to each directory it
   * lists when given {@code watch} (as the scan's plan says).
   */
  private Comparison wholeComparison(
      ScanInputs in, GitIndexes git, Optional<TreeWatch> watch, OptionalLong mark) {
    return compared(
        in,
        TreeScan.walk(in.boundary(), store.localFile(), git, in.options(), in.index(), watch),
        mark);
  }

  /** What {@code scan} found read where its stat proves nothing, and compared with the index. */
  private Comparison compared(ScanInputs in, Scan scan, OptionalLong mark) {
    return IndexComparison.of(scan, in.index(), read(in, scan), mark);
  }

  /**
   * Compares a check's watched scan with its whole one: the names they differ on that no event
   * after the check began explains are suspected ({@link Watching#suspected}). True when some were.
   */
  private boolean suspectedMisses(
      ScanInputs in, Watching.Plan plan, Comparison watched, Comparison full) {
    Set<WorkspacePath> differing = differing(watched.changes(), full.changes());
    Set<WorkspacePath> unexplained =
        differing.isEmpty()
            ? Set.of()
            : watching.unexplained(in.workspaceId(), plan.mark().orElseThrow(), differing);
    if (unexplained.isEmpty()) {
      return false;
    }
    watching.suspected(
        in.workspaceId(),
        plan.mark().orElseThrow(),
        unexplained,
        in.boundary().rootReal().toString(),
        describe(watched.changes(), unexplained)
            + " where a full scan found "
            + describe(full.changes(), unexplained));
    return true;
  }

  /**
   * The check of the baseline a hook's scan wrote, made by {@link WatchChecks} off the hook's path
   * (see {@link Watching}); false when it cannot be made yet: the index this process holds is not
   * the store's committed one (the scan's write commits after the scan returns).
   */
  private boolean checkBaseline(long workspaceId) {
    Optional<TrackedWorkspace> committed =
        store.readWithoutFolding(tx -> tx.indexes().tracked(workspaceId));
    Optional<IndexCache.Index> index =
        indexes
            .held(workspaceId)
            .filter(
                held ->
                    committed
                        .filter(header -> header.version() == held.version())
                        .filter(header -> header.indexedAtNanos() == held.indexedAtNanos())
                        .isPresent());
    if (index.isEmpty()) {
      return false;
    }
    Optional<Watching.Plan> plan = watching.check(workspaceId, index.get());
    if (plan.isPresent()) {
      try {
        compareForCheck(workspaceId, index.get(), options(committed), plan.get());
      } finally {
        watching.checkDone(workspaceId, plan.get().mark().orElseThrow());
      }
    }
    return true;
  }

  /**
   * A check off the hooks' path failed: told with the workspace's real root, or its number when the
   * store cannot say (the failure may be the store's).
   */
  private void checkFailed(long workspaceId, RuntimeException failure) {
    String root;
    try {
      root =
          store
              .readWithoutFolding(tx -> tx.workspaces().byId(workspaceId))
              .map(StoredWorkspace::rootReal)
              .orElse("workspace " + workspaceId);
    } catch (RuntimeException unread) {
      root = "workspace " + workspaceId;
    }
    watching.checkFailed(root, failure);
  }

  /**
   * A check off the hooks' path: a watched scan of the names with an event since the baseline and a
   * whole walk, both against the baseline's index, neither storing content nor writing anything,
   * compared as a status's check compares them; where they differ on a name no event explains, the
   * name is suspected and the next scan walks the whole tree. Nothing is compared when the changed
   * names were more than the budget allows (the next scan walks the whole tree for that). The store
   * is read without folding: a turn's calls may be appending to the before log meanwhile, and a
   * fold writes no index.
   */
  private void compareForCheck(
      long workspaceId, IndexCache.Index index, TrackingOptions options, Watching.Plan plan) {
    GitIndexes git = gitIndexes(workspaceId);
    try (WorkspaceHandles.Lease lease = workspaces.borrow(workspaceId)) {
      ScanInputs in = ScanInputs.ofCheck(workspaceId, index, lease.boundary(), options);
      Optional<Comparison> watched = watchedComparison(in, git, plan);
      if (watched.isEmpty()) {
        return;
      }
      watching.checkStarting();
      // adding no watch (the scans keep the watch); the check's thread, and the walk's listers and
      // content readers it starts, run behind the hooks (WatchChecks)
      Comparison full = wholeComparison(in, git, Optional.empty(), plan.mark());
      suspectedMisses(in, plan, watched.get(), full);
    }
  }

  /**
   * Reads what the scan could not prove unchanged ({@link ContentReader}); the ignored files of a
   * workspace that keeps their metadata only are read without storing, and kept with their stat and
   * hash ({@link IndexComparison#withoutContent}).
   */
  private ContentReader.Reading read(ScanInputs in, Scan scan) {
    // only a track trains the workspace's dictionary, never a hook's scan: a workspace tracked
    // before dictionaries existed gets one at its next track, not in the middle of a finish
    boolean mayTrain = in.scope() == Watching.Scope.TRACK;
    List<ScannedEntry> toRead = IndexComparison.toRead(scan);
    Map<WorkspacePath, Sha256> indexed = IndexComparison.storedContents(scan);
    if (scan.keptOfIgnored() != IgnoredFiles.METADATA || scan.ignoredFiles().isEmpty()) {
      return contents.read(
          in.workspaceId(),
          in.boundary(),
          toRead,
          indexed,
          in.storeContent(),
          mayTrain,
          in.progress());
    }
    Map<Boolean, List<ScannedEntry>> ignored =
        toRead.stream()
            .collect(
                Collectors.partitioningBy(entry -> scan.ignoredFiles().contains(entry.path())));
    ContentReader.Reading kept =
        contents.read(
            in.workspaceId(),
            in.boundary(),
            ignored.get(false),
            indexed,
            in.storeContent(),
            mayTrain,
            in.progress());
    Map<WorkspacePath, Observation> read = new HashMap<>(kept.observations());
    contents
        .read(
            in.workspaceId(),
            in.boundary(),
            ignored.get(true),
            indexed,
            false,
            false,
            Progress.NONE)
        .observations()
        .forEach(
            (path, observation) -> read.put(path, IndexComparison.withoutContent(observation)));
    return new ContentReader.Reading(read, kept.unstored(), kept.stored());
  }

  /**
   * The changed names and every indexed file with more than one link: a write through another name
   * (outside the workspace, or in a directory not watched) is an event of that name's directory
   * only, so a hardlinked file is always looked at again.
   */
  private static Set<WorkspacePath> withHardlinked(
      Set<WorkspacePath> dirty, IndexCache.Index index) {
    Set<WorkspacePath> paths = new HashSet<>(dirty);
    for (IndexEntry entry : index.hardlinked()) {
      paths.add(entry.path());
    }
    return paths;
  }

  private static String describe(List<PathChange> changes, Set<WorkspacePath> paths) {
    Map<String, ChangeKind> found = new TreeMap<>();
    for (PathChange change : changes) {
      if (paths.contains(change.path())) {
        found.put(change.path().display(), change.kind());
      }
    }
    return found.toString();
  }

  /** The paths whose change (or its kind) one comparison has and the other has not. */
  private static Set<WorkspacePath> differing(List<PathChange> one, List<PathChange> other) {
    Map<WorkspacePath, ChangeKind> a = new HashMap<>();
    one.forEach(change -> a.put(change.path(), change.kind()));
    Map<WorkspacePath, ChangeKind> b = new HashMap<>();
    other.forEach(change -> b.put(change.path(), change.kind()));
    Set<WorkspacePath> differing = new HashSet<>();
    a.forEach(
        (path, kind) -> {
          if (kind != b.get(path)) {
            differing.add(path);
          }
        });
    b.forEach(
        (path, kind) -> {
          if (kind != a.get(path)) {
            differing.add(path);
          }
        });
    return differing;
  }

  /**
   * Writes the index after a comparison, unless another scan wrote it since the comparison read it
   * (two turns finishing in one workspace at once): then false, and nothing is written; the caller
   * compares again.
   */
  private boolean write(
      StoreTransaction tx, long workspaceId, Comparison comparison, TrackingOptions options) {
    if (tx.indexes().version(workspaceId).orElse(0L) != comparison.indexVersion()) {
      return false;
    }
    // the scan's last contents, which the index written below refers to, in the same commit
    tx.blobs().putAll(comparison.unstoredContents());
    Scan scan = comparison.scan();
    tx.indexes()
        .write(
            workspaceId,
            scan.startedAtNanos(),
            scan.partial(),
            options.maxFiles(),
            options.maxBytes(),
            comparison.upserts(),
            comparison.removals(),
            Optional.of(scan.leftOut()));
    // a watched scan's directories are the index's with its walk laid over them: only those
    // laid over are compared, and the index held next is the same layers with the changes added
    DirectoryModes before = comparison.directoriesBefore().orElse(DirectoryModes.NONE);
    DirectoryModes.Changes changes = scan.directories().since(before);
    List<WorkspacePath> gone =
        changes.gone().stream()
            .filter(path -> IndexComparison.covered(path, scan.notCovered()))
            .toList();
    tx.indexDirectories().write(workspaceId, changes.set(), gone);
    if (comparison.watchMark().isPresent()) {
      long version = tx.indexes().version(workspaceId).orElseThrow();
      DirectoryModes directories = before.with(changes.set(), gone);
      indexes.advance(
          workspaceId,
          comparison.indexVersion(),
          version,
          scan.startedAtNanos(),
          scan.partial(),
          comparison.upserts(),
          comparison.removals(),
          directories);
      if (watching.written(
          workspaceId, version, scan.startedAtNanos(), comparison.watchMark().getAsLong())) {
        checks.later(workspaceId);
      }
    } else {
      indexes.invalidate(workspaceId);
    }
    return true;
  }

  /** Records what the index keeps of ignored files, in the transaction that wrote it. */
  private static boolean keptOfIgnored(
      StoreTransaction tx, long workspaceId, TrackingOptions options) {
    tx.indexes()
        .ignoredFiles(
            workspaceId,
            options.ignoredFilesOr(IgnoredFiles.NONE).code(),
            options.ignoredMaxBytes());
    return true;
  }

  /**
   * The directories a comparison saw appear, go or change mode since the index, and those above
   * {@code paths} (the changes a turn records), each as the index had it and as the scan found it;
   * none when the index was written before directories were indexed. Directories the scan did not
   * cover are left out.
   */
  public static List<DirectoryDelta> directories(
      Comparison comparison, Collection<WorkspacePath> paths) {
    return IndexComparison.directories(comparison, paths);
  }

  /** The before-state a change found by a scan had: the indexed state, or a known absence. */
  public static Snapshot before(PathChange change, WorkspaceBoundary boundary, Instant at) {
    return change
        .indexed()
        .map(entry -> entry.toSnapshot(boundary.kind(), at))
        .orElseGet(() -> Snapshot.absent(change.path(), boundary.kind(), at));
  }
}
