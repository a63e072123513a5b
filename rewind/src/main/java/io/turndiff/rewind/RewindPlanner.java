package io.turndiff.rewind;

import io.turndiff.diff.RenameDetection;
import io.turndiff.model.ExternalIds;
import io.turndiff.model.RequestException;
import io.turndiff.model.RewindStatus;
import io.turndiff.model.Sha256;
import io.turndiff.model.Snapshot;
import io.turndiff.model.TurnKind;
import io.turndiff.model.TurnState;
import io.turndiff.model.WorkspacePath;
import io.turndiff.store.Blobs;
import io.turndiff.store.RewindOperations;
import io.turndiff.store.Store;
import io.turndiff.store.StoreTransaction;
import io.turndiff.store.StoredDirectoryChange;
import io.turndiff.store.StoredFileChange;
import io.turndiff.store.StoredRewindOperation;
import io.turndiff.store.StoredSession;
import io.turndiff.store.StoredToolCall;
import io.turndiff.store.StoredTurn;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * Plans a rewind from the store alone, before anything is written: reads the turns and what they
 * recorded in one read transaction and turns them into a {@link Plan} (whose per-path rules are
 * {@link RewindDecision}'s), and stores a plan as an operation with its journal. It never touches
 * the workspace.
 */
final class RewindPlanner {

  private final Store store;

  RewindPlanner(Store store) {
    this.store = store;
  }

  /** Plans the request in one read transaction (nothing is stored). */
  Plan plan(RewindRequest request, NamedPaths named) {
    return store.read(tx -> plan(tx, request, named, Map.of()));
  }

  /**
   * The paths the request names, parsed against the stored roots of its turn's workspace ({@link
   * NamedPaths#EVERY} when it names none), with the old name of each rename of the turn whose new
   * name they name ({@link NamedPaths#withOldNamesOf}); a hunk's one path stays alone.
   */
  static NamedPaths named(StoreTransaction tx, RewindRequest request) {
    if (request.paths().isEmpty()) {
      return NamedPaths.EVERY;
    }
    StoredTurn target = tx.turns().require(request.turn());
    NamedPaths named =
        NamedPaths.parse(tx.workspaces().byId(target.workspaceId()).orElseThrow(), request.paths());
    if (request.hunk().isPresent()) {
      return named;
    }
    List<RenameDetection.Change> finished =
        tx.fileChanges().ofTurn(target.id()).stream()
            .flatMap(
                change ->
                    RenameDetection.Change.finished(change.path(), change.before(), change.after())
                        .stream())
            .toList();
    return named.withOldNamesOf(RenameDetection.among(finished, tx.blobs()::contentsOf));
  }

  /**
   * The turns the request rewinds: its turn, and with {@code to} every later one of the session but
   * those outside any turn. An outside turn holds the user's own edits between turns: a rewind to a
   * turn undoes the agent's work since, not the user's (what the user changed in a path the rewind
   * would write is a conflict that names the outside turn). Named as the turn itself, an outside
   * turn is rewound like any other.
   */
  private static List<StoredTurn> turnsOf(
      StoreTransaction tx, RewindRequest request, StoredTurn target) {
    return request.to()
        ? tx.turns().ofSession(target.sessionId()).stream()
            .filter(turn -> turn.seq() >= target.seq())
            .filter(turn -> turn.id() == target.id() || turn.kind() != TurnKind.OUTSIDE)
            .toList()
        : List.of(target);
  }

  /**
   * Plans the request within {@code tx}: the turns it rewinds (refused when one is open, or when
   * the turn was rewound completely already), and each path they recorded by the chain rule ({@link
   * RewindDecision#chain}); with {@code named} paths, only what the turns recorded at or under them
   * (a named path they did not change is refused, naming it). The stored contents its planned paths
   * need are loaded and checked ({@link #withDamagedContentsLeft}), but those among {@code
   * checked}: the contents a plan made just before checked, which a plan made again takes as they
   * are.
   */
  static Plan plan(
      StoreTransaction tx, RewindRequest request, NamedPaths named, Map<Sha256, byte[]> checked) {
    StoredTurn target = tx.turns().require(request.turn());
    List<StoredTurn> turns = turnsOf(tx, request, target);
    for (StoredTurn turn : turns) {
      if (turn.state() == TurnState.OPEN) {
        throw new RequestException(
            RequestException.Problem.WRONG_STATE,
            "turn '" + turn.externalId() + "' is open; finish it before rewinding it");
      }
    }
    if (!request.to() && target.state() == TurnState.REWOUND) {
      // a rewind that left files or directories (conflicts, refusals) may be run again, say with
      // --force; a
      // complete one not
      Optional<StoredRewindOperation> by = tx.rewinds().thatRewound(target.id());
      boolean complete = by.map(op -> tx.rewinds().complete(op.id())).orElse(true);
      if (complete) {
        throw new RequestException(
            RequestException.Problem.WRONG_STATE,
            "turn '"
                + target.externalId()
                + "' was already rewound"
                + by.map(
                        op ->
                            " by operation '"
                                + op.externalId()
                                + "'; rewind its turn '"
                                + op.rewindTurn()
                                + "' to undo that rewind")
                    .orElse(""));
      }
    }
    Map<WorkspacePath, List<StoredFileChange>> byPath = new TreeMap<>();
    for (StoredTurn turn : turns) {
      for (StoredFileChange change : tx.fileChanges().ofTurn(turn.id())) {
        byPath.computeIfAbsent(change.path(), path -> new ArrayList<>()).add(change);
      }
    }
    Map<Long, StoredTurn> turnsById = new HashMap<>();
    turns.forEach(turn -> turnsById.put(turn.id(), turn));
    Set<WorkspacePath> directories = new HashSet<>();
    Set<WorkspacePath> changedDirectories = new HashSet<>();
    for (StoredDirectoryChange row : tx.directoryChanges().ofTurns(turnsById.keySet())) {
      directories.add(row.path());
      if (!row.after().equals(Optional.of(row.before()))) {
        changedDirectories.add(row.path());
      }
    }
    requireChanged(named, byPath.keySet(), changedDirectories, target, request.to());
    Optional<BeforeToolCall> step =
        request
            .beforeToolCall()
            .map(
                call ->
                    BeforeToolCall.of(
                        tx, target, call, byPath.values().stream().flatMap(List::stream).toList()));
    Map<WorkspacePath, StoredRewindOperation> putBack =
        request.to() ? Map.of() : putBackByPathRewinds(tx, target);
    StoredSession session = tx.sessions().byExternalId(target.sessionExternalId()).orElseThrow();
    Optional<OtherSessionsWork> otherWork =
        request.force()
            ? Optional.empty()
            : Optional.of(OtherSessionsWork.of(tx, session, turns, byPath));
    List<PlannedPath> paths = new ArrayList<>();
    byPath.forEach(
        (path, changes) -> {
          if (!named.selects(path)) {
            return;
          }
          StoredRewindOperation by = putBack.get(path);
          if (step.isPresent()) {
            if (!(directories.contains(path) && namedDirectory(changes))) {
              planStep(path, changes.getFirst(), step.get(), target)
                  .ifPresent(planned -> paths.add(leftForOtherWork(planned, otherWork)));
            }
          } else if (by != null) {
            paths.add(putBackAlready(path, changes, by));
          } else if (!(directories.contains(path) && namedDirectory(changes))) {
            paths.add(leftForOtherWork(planPath(path, changes, turnsById), otherWork));
          } // else a directory a snapshot named: the directories' rewind removes it, makes it
          // again or puts its mode back
        });
    Optional<HunkTarget> hunk =
        request
            .hunk()
            .map(
                number -> {
                  WorkspacePath path = named.paths().getFirst();
                  return HunkTarget.of(
                      tx, target, path, Optional.ofNullable(byPath.get(path)), number);
                });
    if (hunk.isPresent()) {
      // the hunk's path goes back to the after-state without that hunk, where the chain rule lets
      // it go back at all
      paths.replaceAll(planned -> hunk.get().targets(planned) ? hunk.get().in(planned) : planned);
    }
    List<StoredTurn> newestFirst = new ArrayList<>(turns);
    newestFirst.sort(Comparator.comparingLong(StoredTurn::seq).reversed());
    if (step.isPresent() && paths.isEmpty()) {
      throw new RequestException(
          RequestException.Problem.BAD_INPUT,
          "tool call '"
              + step.get().call().externalId()
              + "' and the later calls of turn '"
              + target.externalId()
              + "' changed no file"
              + (named.every() ? "" : " at or under the paths named")
              + ": nothing to rewind");
    }
    Map<Sha256, byte[]> contents = withDamagedContentsLeft(tx, paths, hunk, checked);
    return new Plan(
        target, session, newestFirst, paths, named, step.map(BeforeToolCall::call), hunk, contents);
  }

  /**
   * Loads the stored contents the planned paths' writes and decisions read (each path's target and
   * the state the turns left, but a hunk's target, which the plan holds), each checked against its
   * hash ({@link io.turndiff.store.Blobs#checkedContentsOf}); a path one of whose contents reads
   * back as other bytes is left as {@code damaged} ({@link DamagedContents}), so the rest of the
   * rewind goes on and the report names it. Those among {@code checked} (the sound contents of a
   * plan made just before, by hash) are not loaded again. Returns the sound contents, the hunk's
   * target among them.
   *
   * <p>Left, not refused as a whole: a rewind puts each path back on its own (a conflict leaves one
   * path, not the turn), and one bad row says nothing of the others, whose bytes are checked as
   * well. Before this check, a changed row was written into the workspace as if it were the
   * captured state.
   */
  private static Map<Sha256, byte[]> withDamagedContentsLeft(
      StoreTransaction tx,
      List<PlannedPath> paths,
      Optional<HunkTarget> hunk,
      Map<Sha256, byte[]> checked) {
    Set<Sha256> read = new HashSet<>();
    paths.stream()
        .filter(path -> path.status() == RewindStatus.PLANNED)
        .forEach(
            path -> {
              if (hunk.filter(made -> made.targets(path)).isEmpty()) {
                path.target().storedContent().ifPresent(read::add);
              }
              path.expected().flatMap(Snapshot::storedContent).ifPresent(read::add);
            });
    Map<Sha256, byte[]> contents = new HashMap<>();
    read.removeIf(
        sha -> {
          byte[] known = checked.get(sha);
          if (known != null) {
            contents.put(sha, known);
          }
          return known != null;
        });
    Blobs.CheckedContents loaded = tx.blobs().checkedContents(read);
    DamagedContents damaged = new DamagedContents(loaded.damaged());
    if (damaged.any()) {
      paths.replaceAll(path -> leftWhenDamaged(path, damaged));
    }
    contents.putAll(loaded.sound());
    hunk.ifPresent(made -> contents.put(made.target().content(), made.content()));
    return contents;
  }

  /** A planned path left as {@code damaged} when a content it needs reads back wrong. */
  private static PlannedPath leftWhenDamaged(PlannedPath path, DamagedContents damaged) {
    if (path.status() != RewindStatus.PLANNED) {
      return path;
    }
    return damaged
        .leave(path.target(), path.expected(), Optional.empty())
        .map(why -> path.left(SkipReason.DAMAGED, why))
        .orElse(path);
  }

  /**
   * One path's place in a rewind to before a tool call of {@code turn} ({@link BeforeToolCall}):
   * none when no call at or after it touched the path; else the state the first of those calls
   * found, by the chain rule against what the turn left, or left with why.
   */
  private static Optional<PlannedPath> planStep(
      WorkspacePath path, StoredFileChange change, BeforeToolCall step, StoredTurn turn) {
    return switch (step.select(change)) {
      case BeforeToolCall.Selection.Stays stays -> Optional.empty();
      case BeforeToolCall.Selection.Left left ->
          Optional.of(
              new PlannedPath(
                  path,
                  change.beforeRow(),
                  change.before(),
                  change.afterRow(),
                  change.after(),
                  RewindStatus.SKIPPED,
                  Optional.of(left.reason()),
                  Optional.of(left.detail())));
      case BeforeToolCall.Selection.Rewound rewound -> {
        RewindDecision.ChainVerdict verdict =
            RewindDecision.chain(
                path,
                List.of(
                    new RewindDecision.Step(turn.externalId(), rewound.target(), change.after())));
        yield Optional.of(
            new PlannedPath(
                path,
                rewound.targetRow(),
                rewound.target(),
                change.afterRow(),
                change.after(),
                verdict.status(),
                verdict.reason(),
                verdict.detail().or(rewound::detail)));
      }
    };
  }

  /**
   * A path the plan would put back that holds another session's work ({@link OtherSessionsWork}) is
   * a conflict naming it, left as it is; a forced rewind has no such check ({@code otherWork}
   * empty).
   */
  private static PlannedPath leftForOtherWork(
      PlannedPath planned, Optional<OtherSessionsWork> otherWork) {
    if (planned.status() != RewindStatus.PLANNED || otherWork.isEmpty()) {
      return planned;
    }
    return otherWork
        .get()
        .at(planned.path())
        .map(detail -> planned.left(SkipReason.CONFLICT, detail))
        .orElse(planned);
  }

  /**
   * Refuses a named path under which the turns changed nothing: no file they recorded, no directory
   * they created, removed or changed the mode of.
   */
  private static void requireChanged(
      NamedPaths named,
      Set<WorkspacePath> files,
      Set<WorkspacePath> changedDirectories,
      StoredTurn target,
      boolean to) {
    for (WorkspacePath path : named.paths()) {
      boolean changed =
          files.stream().anyMatch(file -> file.isWithin(path))
              || changedDirectories.stream().anyMatch(directory -> directory.isWithin(path));
      if (!changed) {
        throw new RequestException(
            RequestException.Problem.BAD_INPUT,
            "path '"
                + path.display()
                + "' was not changed by turn '"
                + target.externalId()
                + "'"
                + (to ? " or any later turn of its session" : "")
                + ": nothing to rewind there");
      }
    }
  }

  /**
   * The paths of {@code target} that an earlier rewind of some of its paths put back (restored or
   * merged), while that rewind is not undone (its rewind turn not rewound): a later rewind of the
   * turn leaves them as they are, so that it neither writes them again nor overwrites what was done
   * to them since.
   */
  private static Map<WorkspacePath, StoredRewindOperation> putBackByPathRewinds(
      StoreTransaction tx, StoredTurn target) {
    Map<WorkspacePath, StoredRewindOperation> putBack = new HashMap<>();
    for (StoredRewindOperation operation : tx.rewinds().pathRewindsDoneOf(target.id())) {
      boolean undone =
          tx.turns()
              .byId(operation.rewindTurnId())
              .map(turn -> turn.state() == TurnState.REWOUND)
              .orElse(false);
      if (undone) {
        continue;
      }
      tx.rewinds().entries(operation.id()).stream()
          .filter(
              entry ->
                  entry.status() == RewindStatus.RESTORED || entry.status() == RewindStatus.MERGED)
          .forEach(entry -> putBack.put(entry.path(), operation));
    }
    return putBack;
  }

  /** A path an earlier rewind of some paths of the turn put back: nothing to do. */
  private static PlannedPath putBackAlready(
      WorkspacePath path, List<StoredFileChange> changes, StoredRewindOperation by) {
    return planned(
        path,
        changes,
        RewindStatus.UNCHANGED,
        Optional.empty(),
        Optional.of(
            "put back already by rewind operation '"
                + by.externalId()
                + "' (rewind its turn '"
                + by.rewindTurn()
                + "' to undo that)"));
  }

  /**
   * A path's place in the plan: the oldest before-state of its {@code changes} to put back, the
   * newest after-state expected, and the verdict.
   */
  private static PlannedPath planned(
      WorkspacePath path,
      List<StoredFileChange> changes,
      RewindStatus status,
      Optional<String> reason,
      Optional<String> detail) {
    StoredFileChange first = changes.getFirst();
    StoredFileChange last = changes.getLast();
    return new PlannedPath(
        path,
        first.beforeRow(),
        first.before(),
        last.afterRow(),
        last.after(),
        status,
        reason,
        detail);
  }

  /**
   * Whether the path is a directory a snapshot named, with no file on either side: a directory when
   * the turns first recorded it or when they finished, and a directory or nothing on the other side
   * (a directory they created or removed, or whose mode they changed). As a file it holds nothing
   * before and after; the directory is a directory record's.
   */
  private static boolean namedDirectory(List<StoredFileChange> changes) {
    Snapshot first = changes.getFirst().before();
    Optional<Snapshot> last = changes.getLast().after();
    boolean directoryOrNothing =
        (first.isDirectory() || first instanceof Snapshot.Absent)
            && last.filter(state -> state.isDirectory() || state instanceof Snapshot.Absent)
                .isPresent();
    return directoryOrNothing
        && (first.isDirectory() || last.filter(Snapshot::isDirectory).isPresent());
  }

  /**
   * One path's place in the plan, by the chain rule over what the turns recorded of it (oldest
   * first).
   */
  private static PlannedPath planPath(
      WorkspacePath path, List<StoredFileChange> changes, Map<Long, StoredTurn> turns) {
    RewindDecision.ChainVerdict verdict =
        RewindDecision.chain(
            path,
            changes.stream()
                .map(
                    change ->
                        new RewindDecision.Step(
                            turns.get(change.turnId()).externalId(),
                            change.before(),
                            change.after()))
                .toList());
    return planned(path, changes, verdict.status(), verdict.reason(), verdict.detail());
  }

  /**
   * Stores the plan as operation {@code operationId} within {@code tx}: the operation, its rewind
   * turn (which records what the rewind replaces, so that rewinding it undoes the rewind), and one
   * journal entry per path (a hunk's target, which the plan made, stored with its entry).
   */
  static StoredRewindOperation persist(
      StoreTransaction tx, String operationId, Plan plan, RewindRequest request) {
    StoredTurn rewindTurn =
        tx.turns().begin(ExternalIds.generate("turn"), plan.session(), TurnKind.REWIND);
    StoredRewindOperation operation =
        tx.rewinds()
            .create(
                operationId,
                plan.session().id(),
                plan.target().id(),
                request.scope(),
                request.force(),
                rewindTurn.id(),
                plan.turns().stream().map(StoredTurn::id).toList(),
                plan.named().paths(),
                plan.beforeToolCall().map(StoredToolCall::externalId),
                plan.hunk().map(HunkTarget::number));
    List<RewindOperations.NewEntry> entries = new ArrayList<>(plan.paths().size());
    for (PlannedPath path : plan.paths()) {
      // a hunk's target was made by the plan: stored now, with the plan
      long targetRow =
          plan.hunk()
              .filter(hunk -> hunk.targets(path))
              .map(hunk -> hunk.store(tx))
              .orElse(path.targetRow());
      entries.add(
          new RewindOperations.NewEntry(
              path.path(),
              targetRow,
              path.expectedRow(),
              path.status(),
              path.reason(),
              path.detail()));
    }
    // one statement per 64 entries, in the plan's order (the entries' ids follow it)
    tx.rewinds().addEntries(operation.id(), entries);
    return operation;
  }
}
