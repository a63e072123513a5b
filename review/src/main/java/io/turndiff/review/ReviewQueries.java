package io.turndiff.review;

import io.turndiff.diff.FilePatch;
import io.turndiff.diff.GitPatchWriter;
import io.turndiff.diff.PatchSide;
import io.turndiff.model.ChangeKind;
import io.turndiff.model.ExternalIds;
import io.turndiff.model.GivenPath;
import io.turndiff.model.RequestException;
import io.turndiff.model.Sha256;
import io.turndiff.model.Snapshot;
import io.turndiff.model.WorkspacePath;
import io.turndiff.store.Store;
import io.turndiff.store.StoreTransaction;
import io.turndiff.store.StoredFileChange;
import io.turndiff.store.StoredSession;
import io.turndiff.store.StoredTurn;
import io.turndiff.store.StoredWorkspace;
import io.turndiff.store.TurnListing;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What the review panel asks: the sessions of a workspace, the turns of a session, a turn's records, a
 * file's diff, a turn or a stretch of turns as a patch, and a path's history. Every answer comes from the
 * store; nothing is read from a workspace at query time.
 */
public final class ReviewQueries {

  public static final int MAX_PAGE = 500;

  private final Store store;
  private final GitPatchWriter applicable = new GitPatchWriter(GitPatchWriter.BinaryStyle.LITERAL);
  private final GitPatchWriter summary = new GitPatchWriter(GitPatchWriter.BinaryStyle.SUMMARY);

  public ReviewQueries(Store store) {
    this.store = store;
  }

  // ---- workspaces, sessions, turns --------------------------------------------------------------------

  /** The workspace a runtime named, matched by the root as given or its real path as stored. */
  private static StoredWorkspace workspace(StoreTransaction tx, Path workspace) {
    Path absolute = workspace.toAbsolutePath().normalize();
    Optional<StoredWorkspace> found = tx.workspaces().byRealRoot(absolute.toString());
    if (found.isEmpty()) {
      found = tx.workspaces().byGivenRoot(absolute.toString());
    }
    return found.orElseThrow(() -> new RequestException(RequestException.Problem.WORKSPACE,
        "workspace " + workspace + " has no recorded turns"));
  }

  public List<SessionListing> sessions(Path workspace) {
    return store.read(tx -> {
      StoredWorkspace found = workspace(tx, workspace);
      List<SessionListing> sessions = new ArrayList<>();
      for (StoredSession session : tx.sessions().ofWorkspace(found.id())) {
        sessions.add(new SessionListing(session, tx.turns().ofSession(session.id()).size()));
      }
      return sessions;
    });
  }

  /** Up to {@code limit} turns of {@code session} numbered after {@code afterSeq}. */
  public TurnPage turns(String session, long afterSeq, int limit) {
    ExternalIds.requireValid("session", session);
    if (limit < 1 || limit > MAX_PAGE) {
      throw new RequestException(RequestException.Problem.BAD_INPUT,
          "limit " + limit + " is not within 1.." + MAX_PAGE);
    }
    return store.read(tx -> {
      StoredSession found = tx.sessions().byExternalId(session).orElseThrow(() -> new RequestException(
          RequestException.Problem.UNKNOWN_SESSION, "session '" + session + "' does not exist"));
      List<TurnListing> page = tx.turns().listing(found.id(), afterSeq, limit + 1);
      Optional<Long> next = Optional.empty();
      if (page.size() > limit) {
        page = page.subList(0, limit);
        next = Optional.of(page.getLast().turn().seq());
      }
      return new TurnPage(session, List.copyOf(page), next);
    });
  }

  // ---- one turn ---------------------------------------------------------------------------------------

  public TurnRecords records(String turnId) {
    ExternalIds.requireValid("turn", turnId);
    return store.read(tx -> {
      StoredTurn turn = requireTurn(tx, turnId);
      String root = tx.workspaces().byId(turn.workspaceId()).orElseThrow().rootReal();
      return new TurnRecords(turn, root, tx.fileChanges().ofTurn(turn.id()));
    });
  }

  private static StoredTurn requireTurn(StoreTransaction tx, String turnId) {
    return tx.turns().byExternalId(turnId).orElseThrow(() -> new RequestException(
        RequestException.Problem.UNKNOWN_TURN, "turn '" + turnId + "' does not exist"));
  }

  /**
   * The turn as one patch that {@code git apply} applies to the before-tree (binary content as git's binary
   * literal); limited to {@code paths} when any are given.
   */
  public String patch(String turnId, List<String> paths) {
    TurnRecords records = records(turnId);
    List<StoredFileChange> chosen = paths.isEmpty() ? records.changes() : select(records, paths);
    Map<Sha256, byte[]> contents = contents(chosen);
    StringBuilder patch = new StringBuilder();
    for (StoredFileChange change : chosen) {
      if (change.after().isEmpty() || change.change().orElse(ChangeKind.UNCHANGED) == ChangeKind.UNCHANGED) {
        continue;
      }
      patch.append(write(applicable, change.path(), change.before(), change.after().get(), contents).text());
    }
    return patch.toString();
  }

  /** The stored diff of one recorded path of a turn: empty when the path did not change. */
  public String fileDiff(String turnId, String path) {
    TurnRecords records = records(turnId);
    StoredFileChange change = select(records, List.of(path)).getFirst();
    if (change.after().isEmpty()) {
      throw new RequestException(RequestException.Problem.WRONG_STATE,
          "turn '" + turnId + "' is open: its diffs are made when it finishes");
    }
    return change.diff().map(sha -> new String(store.read(tx -> tx.blobs().require(sha)), StandardCharsets.UTF_8))
        .orElse("");
  }

  private static List<StoredFileChange> select(TurnRecords records, List<String> paths) {
    List<StoredFileChange> chosen = new ArrayList<>();
    for (String path : paths) {
      List<StoredFileChange> matching = records.changes().stream()
          .filter(change -> change.path().display().equals(path)
              || change.via().map(GivenPath::display).filter(path::equals).isPresent())
          .toList();
      if (matching.isEmpty()) {
        throw new RequestException(RequestException.Problem.BAD_INPUT,
            "path '" + path + "' is not recorded in turn '" + records.turn().externalId() + "'");
      }
      matching.stream().filter(change -> !chosen.contains(change)).forEach(chosen::add);
    }
    return chosen;
  }

  // ---- a stretch of turns -----------------------------------------------------------------------------

  /**
   * From the before-state of turn {@code fromId} to the after-state of turn {@code toId} of the same
   * session: per path, its first before-state and its last after-state in that stretch.
   */
  public RangeDiff range(String fromId, String toId) {
    ExternalIds.requireValid("turn", fromId);
    ExternalIds.requireValid("turn", toId);
    record Stretch(StoredTurn from, StoredTurn to, Map<WorkspacePath, List<StoredFileChange>> byPath,
                   Map<Long, String> turnIds) {
    }
    Stretch stretch = store.read(tx -> {
      StoredTurn from = requireTurn(tx, fromId);
      StoredTurn to = requireTurn(tx, toId);
      if (from.sessionId() != to.sessionId()) {
        throw new RequestException(RequestException.Problem.BAD_INPUT, "turns '" + fromId + "' and '" + toId
            + "' are in different sessions");
      }
      if (from.seq() > to.seq()) {
        throw new RequestException(RequestException.Problem.BAD_INPUT, "turn '" + fromId + "' (" + from.seq()
            + ") comes after turn '" + toId + "' (" + to.seq() + ")");
      }
      Map<WorkspacePath, List<StoredFileChange>> byPath = new java.util.TreeMap<>();
      Map<Long, String> ids = new LinkedHashMap<>();
      for (StoredTurn turn : tx.turns().ofSession(from.sessionId())) {
        if (turn.seq() < from.seq() || turn.seq() > to.seq()) {
          continue;
        }
        ids.put(turn.id(), turn.externalId());
        for (StoredFileChange change : tx.fileChanges().ofTurn(turn.id())) {
          byPath.computeIfAbsent(change.path(), path -> new ArrayList<>()).add(change);
        }
      }
      return new Stretch(from, to, byPath, ids);
    });
    List<StoredFileChange> all = stretch.byPath().values().stream().flatMap(List::stream).toList();
    Map<Sha256, byte[]> contents = contents(all);
    List<RangeChange> changes = new ArrayList<>();
    StringBuilder patch = new StringBuilder();
    for (Map.Entry<WorkspacePath, List<StoredFileChange>> entry : stretch.byPath().entrySet()) {
      List<StoredFileChange> history = entry.getValue();
      Optional<Snapshot> last = history.getLast().after();
      if (last.isEmpty()) {
        throw new RequestException(RequestException.Problem.WRONG_STATE, "turn '"
            + stretch.turnIds().get(history.getLast().turnId()) + "' is open: a range must end at finished turns");
      }
      Snapshot before = history.getFirst().before();
      ChangeKind kind = ChangeKind.between(before, last.get());
      FilePatch counts = kind == ChangeKind.UNCHANGED ? FilePatch.NONE
          : write(summary, entry.getKey(), before, last.get(), contents);
      changes.add(new RangeChange(entry.getKey(), before, last.get(), kind, counts.added(), counts.removed(),
          history.stream().map(change -> stretch.turnIds().get(change.turnId())).toList()));
      if (kind != ChangeKind.UNCHANGED) {
        patch.append(write(applicable, entry.getKey(), before, last.get(), contents).text());
      }
    }
    return new RangeDiff(stretch.from(), stretch.to(), changes, patch.toString());
  }

  // ---- a path's history -------------------------------------------------------------------------------

  /** Every turn in the workspace that recorded {@code path}, oldest first. */
  public List<HistoryEntry> log(Path workspace, String path) {
    return store.read(tx -> {
      StoredWorkspace found = workspace(tx, workspace);
      WorkspacePath key = relativeTo(found, path);
      List<HistoryEntry> entries = new ArrayList<>();
      for (StoredFileChange change : tx.fileChanges().ofPath(found.id(), key)) {
        entries.add(new HistoryEntry(tx.turns().byId(change.turnId()).orElseThrow(), change));
      }
      return entries;
    });
  }

  private static WorkspacePath relativeTo(StoredWorkspace workspace, String path) {
    String relative = path;
    for (String root : List.of(workspace.rootReal(), workspace.rootGiven())) {
      if (path.startsWith(root + "/")) {
        relative = path.substring(root.length() + 1);
        break;
      }
    }
    try {
      return WorkspacePath.of(relative);
    } catch (IllegalArgumentException e) {
      throw new RequestException(RequestException.Problem.BAD_INPUT, "path '" + path + "' is not a workspace "
          + "path: " + e.getMessage());
    }
  }

  // ---- content ----------------------------------------------------------------------------------------

  private Map<Sha256, byte[]> contents(List<StoredFileChange> changes) {
    List<Snapshot> snapshots = new ArrayList<>();
    changes.forEach(change -> {
      snapshots.add(change.before());
      change.after().ifPresent(snapshots::add);
    });
    return store.read(tx -> tx.blobs().contentsOf(snapshots));
  }

  private static FilePatch write(GitPatchWriter writer, WorkspacePath path, Snapshot before, Snapshot after,
                                 Map<Sha256, byte[]> contents) {
    return writer.write(path, PatchSide.of(before, before.storedContent().map(contents::get)),
        PatchSide.of(after, after.storedContent().map(contents::get)));
  }
}
