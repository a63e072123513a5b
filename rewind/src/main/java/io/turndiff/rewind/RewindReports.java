package io.turndiff.rewind;

import io.turndiff.boundary.Observation;
import io.turndiff.boundary.WorkspaceBoundary;
import io.turndiff.model.Sha256;
import io.turndiff.model.Snapshot;
import io.turndiff.model.WorkspacePath;
import io.turndiff.rewind.RewindDecision.Action;
import io.turndiff.rewind.RewindDecision.Leave;
import io.turndiff.rewind.RewindDecision.Write;
import io.turndiff.store.Store;
import io.turndiff.store.StoredRewindDirectory;
import io.turndiff.store.StoredRewindEntry;
import io.turndiff.store.StoredRewindOperation;
import io.turndiff.store.StoredTurn;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

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
   * What a rewind of {@code plan} would do, decided on the workspace's state now as the real run
   * decides (contents over the size limit hashed, not stored); nothing is stored or written.
   */
  RewindReport dryRun(String operationId, Plan plan, boolean force, WorkspaceBoundary boundary) {
    List<Snapshot> snapshots = new ArrayList<>();
    plan.paths()
        .forEach(
            path -> {
              snapshots.add(path.target());
              path.expected().ifPresent(snapshots::add);
            });
    Map<Sha256, byte[]> contents = store.read(tx -> tx.blobs().contentsOf(snapshots));
    List<WorkspacePath> restored = new ArrayList<>();
    List<WorkspacePath> merged = new ArrayList<>();
    List<RewindReport.Skipped> skipped = new ArrayList<>();
    List<WorkspacePath> unchanged = new ArrayList<>();
    List<WorkspacePath> written = new ArrayList<>();
    for (PlannedPath path : plan.paths()) {
      switch (path.status()) {
        case UNCHANGED -> unchanged.add(path.path());
        case SKIPPED ->
            skipped.add(
                new RewindReport.Skipped(
                    path.path(), path.reason().orElseThrow(), path.detail().orElse("")));
        default -> {
          Observation current = boundary.observeExact(path.path(), RewindJournal.AS_IF_STORED);
          Action action =
              RewindDecision.decide(
                  path.target(),
                  path.expected(),
                  current.snapshot(),
                  current.content(),
                  contents,
                  force);
          if (action instanceof Write write && write.putsAFile()) {
            written.add(path.path());
          }
          switch (action) {
            case Leave leave ->
                skipped.add(new RewindReport.Skipped(path.path(), leave.reason(), leave.detail()));
            case Write write when write.merge() -> merged.add(path.path());
            default -> restored.add(path.path());
          }
        }
      }
    }
    List<String> turns = plan.turns().stream().map(StoredTurn::externalId).toList();
    DirectoryRewind.Planned directories =
        DirectoryRewind.planOnly(store, boundary, force, turns, plan.named()).wouldDo(written);
    skipped.addAll(directories.left());
    return new RewindReport(
        operationId,
        true,
        false,
        turns,
        restored,
        merged,
        skipped,
        unchanged,
        Optional.empty(),
        directories.created(),
        directories.removed(),
        directories.modes(),
        plan.named().paths());
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
    List<WorkspacePath> merged = new ArrayList<>();
    List<RewindReport.Skipped> skipped = new ArrayList<>();
    List<WorkspacePath> unchanged = new ArrayList<>();
    for (StoredRewindEntry entry : entries) {
      switch (entry.status()) {
        case RESTORED -> restored.add(entry.path());
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
        operation.paths());
  }
}
