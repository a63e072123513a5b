package io.turndiff.capture;

import io.turndiff.boundary.BadPathException;
import io.turndiff.boundary.BoundaryException;
import io.turndiff.boundary.BoundaryOptions;
import io.turndiff.boundary.Observation;
import io.turndiff.boundary.RequestedPath;
import io.turndiff.boundary.WorkspaceBoundary;
import io.turndiff.diff.FilePatch;
import io.turndiff.diff.GitPatchWriter;
import io.turndiff.diff.PatchSide;
import io.turndiff.model.ChangeKind;
import io.turndiff.model.DetectedBy;
import io.turndiff.model.GivenPath;
import io.turndiff.model.Sha256;
import io.turndiff.model.Snapshot;
import io.turndiff.model.TurnKind;
import io.turndiff.model.TurnState;
import io.turndiff.store.Store;
import io.turndiff.store.StoreTransaction;
import io.turndiff.store.StoredFileChange;
import io.turndiff.store.StoredSession;
import io.turndiff.store.StoredTurn;
import io.turndiff.store.StoredWorkspace;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Begins turns, records the before-state of paths as tools announce them, and finishes turns with the
 * after-state and diff of every recorded path.
 *
 * <p>Each snapshot call is its own transaction, so a runtime that dies mid-turn keeps every before-state it
 * recorded; the first before-state of a path in a turn wins. Finishing is one transaction. Files are read
 * (through the workspace boundary) before a transaction begins, so the store's write lock is never held
 * while the file system is slow. Bad input is refused before anything is written.
 */
public final class CaptureService implements AutoCloseable {

  private final Store store;
  private final BoundaryOptions boundaryOptions;
  private final Map<Long, WorkspaceBoundary> boundaries = new ConcurrentHashMap<>();
  private final GitPatchWriter summaryWriter = new GitPatchWriter(GitPatchWriter.BinaryStyle.SUMMARY);
  private final GitPatchWriter applicableWriter = new GitPatchWriter(GitPatchWriter.BinaryStyle.LITERAL);

  public CaptureService(Store store, BoundaryOptions boundaryOptions) {
    this.store = store;
    this.boundaryOptions = boundaryOptions;
  }

  public Store store() {
    return store;
  }

  // ---- begin ------------------------------------------------------------------------------------------

  /**
   * Begins a turn in {@code workspace}: in the session {@code session} (created on first use) or in a new
   * session, with the id {@code turn} or a generated one.
   */
  public BeganTurn beginTurn(Path workspace, Optional<String> session, Optional<String> turn) {
    session.ifPresent(id -> ExternalIds.requireValid("session", id));
    turn.ifPresent(id -> ExternalIds.requireValid("turn", id));
    WorkspaceBoundary boundary = openWorkspace(workspace);
    try {
      BeganTurn began = store.write(tx -> {
        StoredWorkspace registered = tx.workspaces().register(workspace.toString(), boundary.rootReal().toString(),
            boundary.rootDevice(), boundary.rootInode());
        String turnId = turn.orElseGet(() -> ExternalIds.generate("turn"));
        if (tx.turns().byExternalId(turnId).isPresent()) {
          throw new CaptureException(CaptureException.Problem.ALREADY_EXISTS, "turn '" + turnId + "' already exists");
        }
        Optional<StoredSession> existing = session.flatMap(id -> tx.sessions().byExternalId(id));
        if (existing.isPresent() && existing.get().workspaceId() != registered.id()) {
          throw new CaptureException(CaptureException.Problem.WORKSPACE, "session '" + session.get()
              + "' works in another workspace, not " + boundary.rootReal());
        }
        StoredSession chosen = existing.orElseGet(() -> tx.sessions().create(
            session.orElseGet(() -> ExternalIds.generate("session")), registered.id()));
        StoredTurn begun = tx.turns().begin(turnId, chosen, TurnKind.AGENT);
        return new BeganTurn(chosen.externalId(), begun.externalId(), begun.seq(), boundary.rootReal(),
            existing.isEmpty(), boundary.kind());
      });
      long workspaceId = store.read(tx -> tx.workspaces().byRealRoot(boundary.rootReal().toString())
          .orElseThrow().id());
      WorkspaceBoundary previous = boundaries.put(workspaceId, boundary);
      if (previous != null && previous != boundary) {
        previous.close();
      }
      return began;
    } catch (RuntimeException e) {
      boundary.close();
      throw e;
    }
  }

  private WorkspaceBoundary openWorkspace(Path workspace) {
    try {
      return WorkspaceBoundary.open(workspace, boundaryOptions, store.clock());
    } catch (BoundaryException e) {
      throw new CaptureException(CaptureException.Problem.WORKSPACE, e.getMessage());
    }
  }

  /** The held boundary of a stored workspace, opened on first use and checked to be the same directory. */
  WorkspaceBoundary boundaryFor(long workspaceId) {
    WorkspaceBoundary cached = boundaries.get(workspaceId);
    if (cached != null) {
      return cached;
    }
    StoredWorkspace workspace = store.read(tx -> tx.workspaces().byId(workspaceId)).orElseThrow();
    WorkspaceBoundary opened = openWorkspace(Path.of(workspace.rootReal()));
    if (opened.rootDevice() != workspace.rootDevice() || opened.rootInode() != workspace.rootInode()) {
      opened.close();
      throw new CaptureException(CaptureException.Problem.WORKSPACE, "workspace " + workspace.rootReal()
          + " is not the directory its session began in: it was replaced");
    }
    WorkspaceBoundary raced = boundaries.putIfAbsent(workspaceId, opened);
    if (raced != null) {
      opened.close();
      return raced;
    }
    return opened;
  }

  // ---- snapshot ---------------------------------------------------------------------------------------

  /** Records the before-state of {@code paths} for the tool call {@code toolCall} (generated when empty). */
  public List<SnapshotVerdict> snapshot(String turnId, Optional<String> toolCall, List<String> paths) {
    List<byte[]> raw = paths.stream().map(path -> path.getBytes(StandardCharsets.UTF_8)).toList();
    return snapshotPaths(turnId, toolCall, paths, raw);
  }

  /** As {@link #snapshot}, for paths given as raw bytes (names that are not UTF-8). */
  public List<SnapshotVerdict> snapshotBytes(String turnId, Optional<String> toolCall, List<byte[]> paths) {
    return snapshotPaths(turnId, toolCall, null, paths);
  }

  private List<SnapshotVerdict> snapshotPaths(String turnId, Optional<String> toolCall, List<String> texts,
                                              List<byte[]> bytes) {
    toolCall.ifPresent(id -> ExternalIds.requireValid("tool call", id));
    if (bytes.isEmpty()) {
      throw new CaptureException(CaptureException.Problem.BAD_INPUT, "snapshot needs at least one path");
    }
    StoredTurn turn = requireOpen(turnId);
    WorkspaceBoundary boundary = boundaryFor(turn.workspaceId());
    List<RequestedPath> requests = new ArrayList<>(bytes.size());
    try {
      for (int i = 0; i < bytes.size(); i++) {
        requests.add(texts != null ? boundary.parse(texts.get(i)) : boundary.parse(bytes.get(i)));
      }
    } catch (BadPathException e) {
      throw new CaptureException(CaptureException.Problem.BAD_INPUT, e.getMessage());
    }
    List<GivenPath> inputs = new ArrayList<>();
    List<Observation> observations = new ArrayList<>();
    for (RequestedPath request : requests) {
      for (Observation observation : boundary.observe(request)) {
        inputs.add(request.given());
        observations.add(observation);
      }
    }
    String callId = toolCall.orElseGet(() -> ExternalIds.generate("call"));
    return store.write(tx -> {
      StoredTurn current = requireOpen(tx, turnId);
      long callRow = tx.toolCalls().record(current.id(), callId);
      List<SnapshotVerdict> verdicts = new ArrayList<>(observations.size());
      for (int i = 0; i < observations.size(); i++) {
        Observation observation = observations.get(i);
        Snapshot snapshot = observation.snapshot();
        Optional<Long> existing = tx.fileChanges().idOf(current.id(), snapshot.path());
        long changeRow;
        if (existing.isPresent()) {
          changeRow = existing.get();
        } else {
          long snapshotRow = insertSnapshot(tx, observation);
          changeRow = tx.fileChanges().begin(current.id(), snapshot.path(), observation.via(), DetectedBy.SNAPSHOT,
              snapshotRow);
        }
        tx.fileChanges().linkToolCall(changeRow, callRow);
        verdicts.add(new SnapshotVerdict(inputs.get(i), snapshot, observation.via(), existing.isEmpty()));
      }
      return verdicts;
    });
  }

  private static long insertSnapshot(StoreTransaction tx, Observation observation) {
    observation.content().ifPresent(content ->
        tx.blobs().put(observation.snapshot().storedContent().orElseThrow(), content));
    return tx.snapshots().insert(observation.snapshot());
  }

  private StoredTurn requireOpen(String turnId) {
    ExternalIds.requireValid("turn", turnId);
    return store.read(tx -> requireOpen(tx, turnId));
  }

  private static StoredTurn requireOpen(StoreTransaction tx, String turnId) {
    StoredTurn turn = requireTurn(tx, turnId);
    if (turn.state() != TurnState.OPEN) {
      throw new CaptureException(CaptureException.Problem.TURN_NOT_OPEN,
          "turn '" + turnId + "' is " + turn.state().code() + ", not open");
    }
    return turn;
  }

  static StoredTurn requireTurn(StoreTransaction tx, String turnId) {
    return tx.turns().byExternalId(turnId).orElseThrow(() -> new CaptureException(
        CaptureException.Problem.UNKNOWN_TURN, "turn '" + turnId + "' does not exist"));
  }

  // ---- finish -----------------------------------------------------------------------------------------

  /** Takes the after-state of every path the turn recorded, computes the diffs, and closes the turn. */
  public TurnSummary finishTurn(String turnId) {
    for (int attempt = 0; ; attempt++) {
      StoredTurn turn = requireOpen(turnId);
      WorkspaceBoundary boundary = boundaryFor(turn.workspaceId());
      List<StoredFileChange> changes = store.read(tx -> tx.fileChanges().ofTurn(turn.id()));
      Map<Sha256, byte[]> beforeContents = loadContents(changes.stream().map(StoredFileChange::before).toList());
      List<Completed> completed = new ArrayList<>(changes.size());
      for (StoredFileChange change : changes) {
        Observation after = boundary.observeExact(change.path());
        completed.add(complete(change, after, beforeContents));
      }
      Optional<TurnSummary> summary = store.write(tx -> {
        StoredTurn current = requireOpen(tx, turnId);
        if (tx.fileChanges().ofTurn(current.id()).size() != completed.size()) {
          return Optional.empty();  // a snapshot call landed meanwhile: read again
        }
        for (Completed done : completed) {
          long afterRow = insertSnapshot(tx, done.after());
          Optional<Sha256> diff = done.patch().isEmpty() ? Optional.empty()
              : Optional.of(tx.blobs().put(done.patch().text().getBytes(StandardCharsets.UTF_8)));
          tx.fileChanges().complete(done.change().id(), afterRow, done.kind(), done.patch().added(),
              done.patch().removed(), diff);
        }
        tx.turns().markFinished(current.id());
        return Optional.of(summarize(current, completed));
      });
      if (summary.isPresent()) {
        return summary.get();
      }
      if (attempt >= 5) {
        throw new CaptureException(CaptureException.Problem.TURN_NOT_OPEN,
            "turn '" + turnId + "' kept receiving snapshots while it was being finished");
      }
    }
  }

  private record Completed(StoredFileChange change, Observation after, ChangeKind kind, FilePatch patch) {
  }

  private Completed complete(StoredFileChange change, Observation after, Map<Sha256, byte[]> beforeContents) {
    Snapshot before = change.before();
    ChangeKind kind = ChangeKind.between(before, after.snapshot());
    FilePatch patch = kind == ChangeKind.UNCHANGED ? FilePatch.NONE : summaryWriter.write(change.path(),
        PatchSide.of(before, before.storedContent().map(beforeContents::get)),
        PatchSide.of(after.snapshot(), after.content()));
    return new Completed(change, after, kind, patch);
  }

  private static TurnSummary summarize(StoredTurn turn, List<Completed> completed) {
    Map<ChangeKind, Integer> counts = new EnumMap<>(ChangeKind.class);
    long added = 0;
    long removed = 0;
    int notRestorable = 0;
    for (Completed done : completed) {
      counts.merge(done.kind(), 1, Integer::sum);
      added += done.patch().added();
      removed += done.patch().removed();
      if (!done.change().restorable() && done.kind() != ChangeKind.UNCHANGED) {
        notRestorable++;
      }
    }
    return new TurnSummary(turn.externalId(), turn.sessionExternalId(), turn.seq(), TurnState.FINISHED,
        completed.size(), counts, added, removed, notRestorable);
  }

  private Map<Sha256, byte[]> loadContents(List<Snapshot> snapshots) {
    return store.read(tx -> {
      Map<Sha256, byte[]> contents = new HashMap<>();
      for (Snapshot snapshot : snapshots) {
        snapshot.storedContent().ifPresent(sha -> contents.computeIfAbsent(sha, tx.blobs()::require));
      }
      return contents;
    });
  }

  // ---- queries ----------------------------------------------------------------------------------------

  /** The turn and its file records, from the store only. */
  public TurnRecords records(String turnId) {
    ExternalIds.requireValid("turn", turnId);
    return store.read(tx -> {
      StoredTurn turn = requireTurn(tx, turnId);
      String root = tx.workspaces().byId(turn.workspaceId()).orElseThrow().rootReal();
      return new TurnRecords(turn, root, tx.fileChanges().ofTurn(turn.id()));
    });
  }

  /**
   * The turn as one patch that {@code git apply} can apply to the before-tree (binary content as git's binary
   * literal), from the store only; limited to {@code paths} when any are given.
   */
  public String patch(String turnId, List<String> paths) {
    TurnRecords records = records(turnId);
    List<StoredFileChange> chosen = paths.isEmpty() ? records.changes() : select(records, paths);
    List<Snapshot> snapshots = new ArrayList<>();
    chosen.forEach(change -> {
      snapshots.add(change.before());
      change.after().ifPresent(snapshots::add);
    });
    Map<Sha256, byte[]> contents = loadContents(snapshots);
    StringBuilder patch = new StringBuilder();
    for (StoredFileChange change : chosen) {
      if (change.after().isEmpty() || change.change().orElse(ChangeKind.UNCHANGED) == ChangeKind.UNCHANGED) {
        continue;
      }
      Snapshot before = change.before();
      Snapshot after = change.after().get();
      patch.append(applicableWriter.write(change.path(),
          PatchSide.of(before, before.storedContent().map(contents::get)),
          PatchSide.of(after, after.storedContent().map(contents::get))).text());
    }
    return patch.toString();
  }

  private static List<StoredFileChange> select(TurnRecords records, List<String> paths) {
    List<StoredFileChange> chosen = new ArrayList<>();
    for (String path : paths) {
      List<StoredFileChange> matching = records.changes().stream()
          .filter(change -> change.path().display().equals(path)
              || change.via().map(GivenPath::display).filter(path::equals).isPresent())
          .toList();
      if (matching.isEmpty()) {
        throw new CaptureException(CaptureException.Problem.BAD_INPUT,
            "path '" + path + "' is not recorded in turn '" + records.turn().externalId() + "'");
      }
      matching.stream().filter(change -> !chosen.contains(change)).forEach(chosen::add);
    }
    return chosen;
  }

  @Override
  public void close() {
    boundaries.values().forEach(WorkspaceBoundary::close);
    boundaries.clear();
  }
}
