package io.turndiff.rewind;

import io.turndiff.boundary.Observation;
import io.turndiff.boundary.WorkspaceBoundary;
import io.turndiff.model.Presence;
import io.turndiff.model.RewindStatus;
import io.turndiff.model.Sha256;
import io.turndiff.model.Snapshot;
import io.turndiff.model.WorkspacePath;
import io.turndiff.rewind.RewindDecision.Action;
import io.turndiff.rewind.RewindDecision.FileStep;
import io.turndiff.rewind.RewindDecision.Leave;
import io.turndiff.rewind.RewindDecision.Write;
import io.turndiff.store.Store;
import io.turndiff.store.StoredRewindDirectory;
import io.turndiff.store.StoredRewindEntry;
import io.turndiff.store.StoredRewindOperation;
import io.turndiff.store.StoredToolCall;
import io.turndiff.store.StoredTurn;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.BiConsumer;
import java.util.function.Function;

/**
 * The reports a rewind returns: a dry run's, decided on the workspace now, and an operation's
 * receipt.
 */
final class RewindReports {

  private final Store store;

  RewindReports(Store store) {
    this.store = store;
  }

  /**
   * A dry run: its report, and what each path decided before any directory step held when it was
   * read (the paths of {@link FileStep#BEFORE_DIRECTORIES} and {@link FileStep#WITH_THE_FILES}).
   * The run decides on these reads instead of reading and hashing every path again. The stored
   * contents it decided with are the plan's ({@link Plan#contents}), which the run takes too.
   */
  record DryRun(RewindReport report, Map<WorkspacePath, Observation> read) {
    DryRun {
      read = Map.copyOf(read);
    }
  }

  /**
   * What a rewind of {@code plan} would do, decided on the workspace's state now as the real run
   * decides (contents over the size limit hashed, not stored), step by step as the run goes ({@link
   * RewindDecision.FileStep}): the files deleted where directories go back, those directories, the
   * other files, the directories the turns created (removed when nothing else is left in them by
   * then), and the files where those were. Nothing is stored or written.
   */
  DryRun dryRun(String operationId, Plan plan, boolean force, WorkspaceBoundary boundary) {
    // loaded, and checked against their hashes, by the planner
    Map<Sha256, byte[]> contents = plan.contents();
    List<String> turns = plan.turns().stream().map(StoredTurn::externalId).toList();
    DirectoryRewind directories =
        DirectoryRewind.planOnly(store, boundary, force, turns, plan.directoryScope());
    Set<WorkspacePath> whereDirectoriesGo = directories.whereDirectoriesGo();
    Set<WorkspacePath> removedByTheRun = new HashSet<>(directories.createdByTurns());
    Map<FileStep, List<PlannedPath>> steps = new EnumMap<>(FileStep.class);
    for (FileStep step : FileStep.values()) {
      steps.put(step, new ArrayList<>());
    }
    plan.paths().stream()
        .filter(path -> path.status() == RewindStatus.PLANNED)
        .forEach(
            path ->
                steps
                    .get(
                        RewindDecision.stepOf(
                            path.path(),
                            path.target(),
                            path.expected(),
                            whereDirectoriesGo,
                            removedByTheRun))
                    .add(path));
    Map<WorkspacePath, Action> actions = new HashMap<>();
    // what each path held when it was decided: a merge's preview is the patch from it
    Map<WorkspacePath, Observation> decidedOn = new HashMap<>();
    Function<PlannedPath, Observation> now =
        path -> boundary.observeExact(path.path(), RewindJournal.AS_IF_STORED);
    BiConsumer<PlannedPath, Observation> decide =
        (path, current) -> {
          decidedOn.put(path.path(), current);
          actions.put(
              path.path(),
              RewindDecision.decide(
                  path.target(),
                  path.expected(),
                  current.snapshot(),
                  current.content(),
                  contents,
                  force));
        };
    steps.get(FileStep.BEFORE_DIRECTORIES).forEach(path -> decide.accept(path, now.apply(path)));
    Set<WorkspacePath> clearedFirst = deletions(actions);
    steps.get(FileStep.WITH_THE_FILES).forEach(path -> decide.accept(path, now.apply(path)));
    Map<WorkspacePath, Observation> readBeforeDirectories = new HashMap<>(decidedOn);
    List<WorkspacePath> written =
        actions.entrySet().stream()
            .filter(action -> action.getValue() instanceof Write write && write.putsAFile())
            .map(Map.Entry::getKey)
            .sorted()
            .toList();
    readBeforeDirectories.values().forEach(directories::notePresentAbove);
    DirectoryRewind.Planned directoryPlan =
        directories.wouldDo(written, clearedFirst, deletions(actions));
    Set<WorkspacePath> removed = new HashSet<>(directoryPlan.removed());
    for (PlannedPath path : steps.get(FileStep.AFTER_REMOVED_DIRECTORIES)) {
      // where the directory the turns created is removed first, the run finds nothing there
      decide.accept(
          path,
          removed.contains(path.path())
              ? new Observation(
                  Snapshot.absent(path.path(), boundary.kind(), store.clock().instant()),
                  Optional.empty(),
                  Optional.empty())
              : now.apply(path));
    }
    // a file under a directory that cannot be put back is left with it, as the run leaves it
    actions.replaceAll(
        (path, action) ->
            action instanceof Write write && write.putsAFile()
                ? directoryPlan
                    .notPutBackAbove(path)
                    .<Action>map(why -> new Leave(SkipReason.REFUSED, why))
                    .orElse(action)
                : action);
    List<WorkspacePath> restored = new ArrayList<>();
    List<WorkspacePath> deleted = new ArrayList<>();
    List<WorkspacePath> merged = new ArrayList<>();
    Map<WorkspacePath, MergePreview> previews = new HashMap<>();
    List<RewindReport.Skipped> skipped = new ArrayList<>();
    List<WorkspacePath> unchanged = new ArrayList<>();
    for (PlannedPath path : plan.paths()) {
      switch (path.status()) {
        case UNCHANGED -> unchanged.add(path.path());
        case SKIPPED ->
            skipped.add(
                new RewindReport.Skipped(
                    path.path(), path.reason().orElseThrow(), path.detail().orElse("")));
        default -> {
          switch (actions.get(path.path())) {
            case Leave leave ->
                skipped.add(new RewindReport.Skipped(path.path(), leave.reason(), leave.detail()));
            case Write write when write.merge() -> {
              merged.add(path.path());
              previews.put(path.path(), preview(path.path(), decidedOn.get(path.path()), write));
            }
            case Write write when !write.putsAFile() -> {
              restored.add(path.path());
              deleted.add(path.path());
            }
            default -> restored.add(path.path());
          }
        }
      }
    }
    skipped.addAll(directoryPlan.left());
    RewindReport report =
        new RewindReport(
            operationId,
            true,
            false,
            turns,
            restored,
            merged,
            skipped,
            unchanged,
            Optional.empty(),
            directoryPlan.created(),
            directoryPlan.removed(),
            directoryPlan.modes(),
            plan.named().paths(),
            deleted,
            changedBy(plan.session().workspaceId(), turns, skipped),
            plan.beforeToolCall().map(StoredToolCall::externalId),
            notes(plan),
            plan.hunk().map(HunkTarget::number),
            previews,
            RewindReport.Durability.NOTHING_WRITTEN);
    return new DryRun(report, readBeforeDirectories);
  }

  /**
   * A merge's preview, from what the path held when the merge was decided ({@code current}: a merge
   * is decided only on a captured file whose content is held in memory) to what it writes.
   */
  private static MergePreview preview(WorkspacePath path, Observation current, Write merge) {
    return MergePreview.of(
        path,
        current.content().orElseThrow(),
        current.snapshot().metadata().orElseThrow().mode(),
        merge);
  }

  /**
   * The plan's words on the paths it puts back ({@link RewindReport#notes}): a planned path's
   * detail, which only a rewind to before a tool call gives (calls that overlapped, rewound
   * together).
   */
  private static Map<WorkspacePath, String> notes(Plan plan) {
    Map<WorkspacePath, String> notes = new TreeMap<>();
    plan.paths().stream()
        .filter(path -> path.status() == RewindStatus.PLANNED)
        .forEach(path -> path.detail().ifPresent(detail -> notes.put(path.path(), detail)));
    return notes;
  }

  /** Who changed each path left in conflict since the rewound turns ({@link LaterChanges}). */
  private Map<WorkspacePath, RewindReport.ChangedBy> changedBy(
      long workspaceId, List<String> rewound, List<RewindReport.Skipped> skipped) {
    List<WorkspacePath> conflicts =
        skipped.stream()
            .filter(skip -> skip.reason().equals(SkipReason.CONFLICT))
            .map(RewindReport.Skipped::path)
            .toList();
    return conflicts.isEmpty()
        ? Map.of()
        : store.read(tx -> LaterChanges.of(tx, workspaceId, rewound, conflicts));
  }

  private static List<String> concat(List<String> turns, String more) {
    List<String> all = new ArrayList<>(turns);
    all.add(more);
    return all;
  }

  /** The paths {@code actions} delete. */
  private static Set<WorkspacePath> deletions(Map<WorkspacePath, Action> actions) {
    Set<WorkspacePath> deleted = new HashSet<>();
    actions.forEach(
        (path, action) -> {
          if (action instanceof Write write && !write.putsAFile()) {
            deleted.add(path);
          }
        });
    return deleted;
  }

  /**
   * An operation's report from its journal alone: what each path and directory ended as, and every
   * path an interrupted run did not reach as skipped ({@code interrupted}), so that the report is
   * never complete before the operation is.
   *
   * @param replayed whether the operation was done before this request (its receipt, returned
   *     again)
   */
  RewindReport receipt(StoredRewindOperation operation, boolean replayed, boolean dryRun) {
    List<StoredRewindEntry> entries = store.read(tx -> tx.rewinds().entries(operation.id()));
    List<WorkspacePath> restored = new ArrayList<>();
    List<WorkspacePath> deleted = new ArrayList<>();
    List<WorkspacePath> merged = new ArrayList<>();
    List<RewindReport.Skipped> skipped = new ArrayList<>();
    List<WorkspacePath> unchanged = new ArrayList<>();
    for (StoredRewindEntry entry : entries) {
      switch (entry.status()) {
        case RESTORED -> {
          restored.add(entry.path());
          // written as a deletion: put back as absent, and not found absent already (which is
          // journaled with a detail); a deletion checked after a restart says so, and is one
          if (entry.target().asFile().presence() == Presence.ABSENT
              && entry.detail().filter(detail -> !isRestartNote(detail)).isEmpty()) {
            deleted.add(entry.path());
          }
        }
        case MERGED -> merged.add(entry.path());
        case SKIPPED ->
            skipped.add(
                new RewindReport.Skipped(
                    entry.path(), entry.reason().orElse(""), entry.detail().orElse("")));
        case UNCHANGED -> unchanged.add(entry.path());
        case PLANNED, STARTED ->
            skipped.add(
                new RewindReport.Skipped(
                    entry.path(),
                    "interrupted",
                    "the operation was interrupted before this path; run it again to finish it"));
      }
    }
    List<WorkspacePath> created = new ArrayList<>();
    List<WorkspacePath> removed = new ArrayList<>();
    List<WorkspacePath> modes = new ArrayList<>();
    for (StoredRewindDirectory directory :
        store.read(tx -> tx.rewindDirectories().of(operation.id()))) {
      switch (directory.status()) {
        case DONE ->
            (switch (directory.action()) {
                  case CREATE -> created;
                  case REMOVE -> removed;
                  case MODE -> modes;
                })
                .add(directory.path());
        case SKIPPED ->
            skipped.add(
                new RewindReport.Skipped(
                    directory.path(),
                    directory.reason().orElse(""),
                    directory.detail().orElse("")));
        case PLANNED ->
            skipped.add(
                new RewindReport.Skipped(
                    directory.path(),
                    "interrupted",
                    "the operation was interrupted before this directory; run it again to finish it"));
      }
    }
    long workspaceId =
        store.read(tx -> tx.turns().byId(operation.rewindTurnId())).orElseThrow().workspaceId();
    return new RewindReport(
        operation.externalId(),
        dryRun,
        replayed,
        operation.turns(),
        restored,
        merged,
        skipped,
        unchanged,
        Optional.of(operation.rewindTurn()),
        created,
        removed,
        modes,
        operation.paths(),
        deleted,
        changedBy(
            workspaceId,
            // the operation's own rewind turn records what it was about to replace: not a later
            // change
            concat(operation.turns(), operation.rewindTurn()),
            skipped),
        operation.beforeToolCall(),
        checkedAfterARestart(entries),
        operation.hunk(),
        Map.of(),
        durability(operation, workspaceId));
  }

  /**
   * Whether what the operation wrote is known to be on the disk: once it is done and synced ({@link
   * RewindService#makeDurable}); before, its files are in place (or some of them, when it was
   * interrupted) and not yet known durable.
   */
  private RewindReport.Durability durability(StoredRewindOperation operation, long workspaceId) {
    boolean unsynced =
        !operation.done()
            || store.read(
                tx ->
                    tx.rewinds().doneUnsyncedIn(workspaceId).stream()
                        .anyMatch(done -> done.id() == operation.id()));
    return unsynced ? RewindReport.Durability.IN_PLACE : RewindReport.Durability.SYNCED;
  }

  /** Whether {@code detail} is what {@link PowerLossRecovery} found of the path: redone or left. */
  private static boolean isRestartNote(String detail) {
    return detail.startsWith(PowerLossRecovery.REDONE) || detail.startsWith(PowerLossRecovery.LEFT);
  }

  /**
   * The paths a check after a restart wrote again, having found that a power loss had taken them
   * back, with what each held, and those it left as they are, with why ({@link PowerLossRecovery}):
   * the receipt's notes, so that neither is silent.
   */
  private static Map<WorkspacePath, String> checkedAfterARestart(List<StoredRewindEntry> entries) {
    Map<WorkspacePath, String> notes = new TreeMap<>();
    for (StoredRewindEntry entry : entries) {
      entry
          .detail()
          .filter(RewindReports::isRestartNote)
          .ifPresent(note -> notes.put(entry.path(), note));
    }
    return notes;
  }
}
